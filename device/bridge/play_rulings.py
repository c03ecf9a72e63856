"""What the terminal shows the director for an irregularity of the play, in Russian and English.

One table, so that the screens, the replay tool and the tests name the same options: for each
law the engine holds a card under (`bridge.play`), what happened and the director's entries
with the paragraph each one applies. Wording follows the seed text (section 5.4, Laws 41-71).

The tables are text, a line per entry, looked up with `find` (a string constant stays in the
terminal's flash; dicts of tuples of strings would cost about 5 KB of heap). `WHAT` and
`OPTIONS` are the same tables as dicts, built when asked for.
"""

# law|entry|paragraph: the director's choices, in order.
_OPTIONS = """
54|accept|54B
54|spread|54A
54|reject|54D
54E|reject|54E
53|accept|53A
53|reject|56
55|accept|55A
55|reject|55B
57|highest|57A1
57|lowest|57A2
57|forbid|57A3
51A|accept|51A
51A|designate|51A
52|accept|52B1a
52|reject|52B2
50D2|require|50D2a
50D2|forbid|50D2a
50D2|none|50D2b
67|supply|67A1
67|omit|67
62C1|withdraw|62C1
62C1|keep|62C1
62C2|withdraw|62C2
62C2|keep|62C2
70|rule|70
68|object|68B2
79C|withdraw|71/69B
79C|64B4|64B4
79C|64B5|64B5
79C|defective|67B1
79C|correct|62D1
"""

# What happened (law|text), each choice (law/entry|text) and its short form for the list of
# options (law/entry~|text, at most 19 characters), in Russian and in English.
_RU = """
54|Открытый первый ход вне очереди
54E|Первый ход игрока разыгрывающей стороны
53|Ход вистующего вне очереди
55|Ход разыгрывающего вне очереди
57|Преждевременный ход или игра вистующего
51A|Вистующий может сыграть одной из нескольких штрафных карт
52|Не сыграна штрафная карта
62C1|Фальшренонс исправлен: карта, сыгранная после него
62C2|Фальшренонс исправлен: карта нарушившей стороны после взятой назад
50D2|Ход партнера игрока со старшей штрафной картой
67|Дефектная взятка: игрок не сыграл во взятку
70|Оспариваемая претензия или уступка
61|Фальшренонс
64C|Фальшренонс: Судья оценивает ущерб (64В)
62D|Фальшренонс в двенадцатой взятке необходимо скорректировать
67B|У игрока остались карты: дефектная взятка
79B|Разногласие по выигранным взяткам
68|Уступка вистующего
79C|После розыгрыша, до проверки результата
54/accept|Разыгрывающий принимает ход, вторая карта с его руки
54/spread|Разыгрывающий выкладывает свою руку и становится болваном
54/reject|Ход взят назад: старшая штрафная карта (50Г)
54E/reject|Карта возвращается в руку (Правило 24)
53/accept|Разыгрывающий принимает ход
53/reject|Ход с правильной руки; карта — старшая штрафная
55/accept|Вистующие принимают ход
55/reject|Разыгрывающий берет ход назад
57/highest|Партнер играет старшей картой масти хода
57/lowest|Партнер играет младшей картой масти хода
57/forbid|Партнеру запрещена указанная масть
51A/accept|Разыгрывающий обозначает сыгранную карту
51A/designate|Разыгрывающий обозначает другую штрафную карту
52/accept|Разыгрывающий принимает карту
52/reject|Сыграть штрафной картой; эта карта — старшая штрафная
50D2/require|Требовать ход в масть штрафной карты
50D2/forbid|Запретить ход в эту масть, пока он сохраняет ход
50D2/none|Не требовать и не запрещать; карта остается штрафной
67/supply|Нарушитель восполняет взятку законной картой
67/omit|Никто не заметил вовремя: взятка без карты, решение — в конце (67Б)
62C1/withdraw|Игрок ненарушившей стороны берет карту назад
62C1/keep|Карта остается сыгранной
62C2/withdraw|Игрок берет карту назад; карта вистующего — штрафная
62C2/keep|Карта остается сыгранной
70/rule|Судья устанавливает число взяток
68/object|Вистующий уступил взятки, партнер сразу возразил: уступки нет, розыгрыш продолжается
79C/withdraw|Уступка или согласие отменены: взятки возвращаются стороне игрока
79C/64B4|Фальшренонс замечен после заявки ненарушившей стороны в следующей сдаче: без исправления
79C/64B5|Фальшренонс замечен после окончания тура: без исправления
79C/defective|Игрок не сыграл во взятку: он кладет в нее карту (фальшренонс)
79C/correct|Фальшренонс в двенадцатой взятке корректируется: последние карты нарушителя меняются
54/accept~|принять ход
54/spread~|выложить руку
54/reject~|назад: штрафная
54E/reject~|карта в руку (24)
53/accept~|принять ход
53/reject~|ход с правильной
55/accept~|принять ход
55/reject~|ход назад
57/highest~|старшая масти хода
57/lowest~|младшая масти хода
57/forbid~|запрет масти
51A/accept~|сыгранная карта
51A/designate~|другая штрафная
52/accept~|принять карту
52/reject~|сыграть штрафной
50D2/require~|требовать масть
50D2/forbid~|запретить масть
50D2/none~|ни того, ни другого
67/supply~|восполнить взятку
67/omit~|в конце (67Б)
62C1/withdraw~|взять карту назад
62C1/keep~|карта остается
62C2/withdraw~|назад; штрафная
62C2/keep~|карта остается
70/rule~|число взяток
68/object~|уступки нет
79C/withdraw~|уступка отменена
79C/64B4~|ренонс: 64Б4
79C/64B5~|ренонс: 64Б5
79C/defective~|дефектная взятка
79C/correct~|12-я взятка: 62Г1
"""

_EN = """
54|Opening lead out of turn faced
54E|Opening lead attempted by the declaring side
53|Defender's lead out of turn
55|Declarer's lead out of turn
57|Premature lead or play by a defender
51A|A defender may play one of several penalty cards
52|Failure to play a penalty card
62C1|Revoke corrected: a card played after it
62C2|Revoke corrected: the offending side's card after one withdrawn
50D2|Lead by the partner of a defender with a major penalty card
67|Defective trick: a player has not played to the trick
70|Disputed claim or concession
61|Revoke
64C|Revoke: the director judges whether the damage is compensated (64C)
62D|A revoke in the twelfth trick must be corrected
67B|A player has cards left: a defective trick
79B|Disagreement on the tricks won
68|A defender's concession
79C|After the play, before the result is verified
54/accept|Declarer accepts the lead and plays second from his own hand
54/spread|Declarer spreads his hand and becomes dummy
54/reject|Lead withdrawn: a major penalty card (50D)
54E/reject|The card goes back to the hand (Law 24)
53/accept|Declarer accepts the lead
53/reject|Lead from the proper hand; the card is a major penalty card
55/accept|The defenders accept the lead
55/reject|Declarer takes the lead back
57/highest|Partner plays his highest card of the suit led
57/lowest|Partner plays his lowest card of the suit led
57/forbid|Partner may not play a suit the declarer names
51A/accept|Declarer designates the card played
51A/designate|Declarer designates another penalty card
52/accept|Declarer accepts the card
52/reject|Play the penalty card; this card becomes a major penalty card
50D2/require|Require a lead of the penalty card's suit
50D2/forbid|Forbid that suit while he retains the lead
50D2/none|No requirement: the penalty card stays
67/supply|The offender supplies a card he can legally play
67/omit|Nobody noticed in time: the trick stands short, settled at the end (67B)
62C1/withdraw|The non-offender takes his card back
62C1/keep|The card stays played
62C2/withdraw|He takes his card back; a defender's is a penalty card
62C2/keep|The card stays played
70/rule|The director rules the number of tricks
68/object|A defender conceded, his partner objected at once: no concession, the play goes on
79C/withdraw|Concession or agreement withdrawn: the tricks go back to the player's side
79C/64B4|Revoke first noticed after a call by the non-offenders on the next board: no rectification
79C/64B5|Revoke first noticed after the round ended: no rectification
79C/defective|A player did not play to a trick: he places a card in it (a revoke)
79C/correct|The twelfth-trick revoke is corrected: the offender's last two cards change places
54/accept~|accept the lead
54/spread~|spread his hand
54/reject~|back: penalty card
54E/reject~|card back (24)
53/accept~|accept the lead
53/reject~|proper hand leads
55/accept~|accept the lead
55/reject~|lead taken back
57/highest~|highest of the suit
57/lowest~|lowest of the suit
57/forbid~|forbid a suit
51A/accept~|the card played
51A/designate~|other penalty card
52/accept~|accept the card
52/reject~|play the penalty
50D2/require~|require the suit
50D2/forbid~|forbid the suit
50D2/none~|neither
67/supply~|supply a card
67/omit~|settle at the end
62C1/withdraw~|take the card back
62C1/keep~|the card stays
62C2/withdraw~|back; penalty card
62C2/keep~|the card stays
70/rule~|rule the tricks
68/object~|no concession
79C/withdraw~|concession void
79C/64B4~|revoke: 64B4
79C/64B5~|revoke: 64B5
79C/defective~|defective trick
79C/correct~|12th trick: 62D1
"""


def _text(key, lang):
    table = _EN if lang == "en" else _RU
    i = table.find("\n" + key + "|")
    if i < 0:
        return None
    i += len(key) + 2
    return table[i:table.find("\n", i)]


def describe(law, lang="ru"):
    """What happened, in the terminal's language (the law code if unknown)."""
    got = _text(law, lang)
    return law if got is None else got


def _rows(law):
    """(entry, paragraph) of each of the law's options, in order."""
    out = []
    head = "\n" + law + "|"
    i = _OPTIONS.find(head)
    while i >= 0:
        i += len(head)
        out.append(tuple(_OPTIONS[i:_OPTIONS.find("\n", i)].split("|")))
        i = _OPTIONS.find(head, i)
    return out


def options(law, lang="ru"):
    """[(entry, paragraph, text)] for a pending law; [] when there is nothing to choose."""
    out = []
    for entry, paragraph in _rows(law):
        out.append((entry, paragraph, _text(law + "/" + entry, lang)))
    return out


def short(law, entry, lang="ru"):
    """The option's short form (at most 19 characters: a line of the 21-column screen with
    its digit), for the list of options; its full text is `options`' (None if it has none)."""
    return _text(law + "/" + entry + "~", lang)


def __getattr__(name):
    """WHAT: law -> (Russian, English); OPTIONS: law -> ((entry, paragraph, Russian,
    English), ...)."""
    if name == "WHAT":
        laws = [line.split("|")[0] for line in _RU.split("\n") if line and "/" not in line]
        return {law: (describe(law, "ru"), describe(law, "en")) for law in laws}
    if name == "OPTIONS":
        laws = [line.split("|")[0] for line in _OPTIONS.split("\n") if line]
        return {law: tuple((e, p, _text(law + "/" + e, "ru"), _text(law + "/" + e, "en"))
                           for e, p in _rows(law)) for law in laws}
    raise AttributeError(name)
