"""What the director explains at the table (Law 10C1): one table of data, Russian and English.

For a pending irregularity, `Auction.situation()` names its row of the choices: the options
the director must explain and the paragraphs each can lead to (the engine decides which, from
the calls that follow). Every law ("L27"), option and paragraph ("27B2") has a short text in
both languages. `explain` and `paragraphs` put them together for the terminal's screen.

The tables are text, a line per entry, looked up with `find`: on the terminal a string
constant stays in flash with the bytecode, while dicts of tuples of strings would cost about
12 KB of heap. `text(code, lang)` and `choices(situation)` read them.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x


# code|text, in Russian and in English (the same codes in the same order)
_RU = const("""
L25|Изменение заявки
L27|Недостаточное назначение
L30|Пас вне очередности
L31|Назначение вне очередности
L32|Контра или реконтра вне очередности
L36|Недопустимая контра или реконтра
L37|Нарушение обязанности пасовать
L38|Назначение выше семи
L39|Заявка после заключительного паса
accept|ЛО нарушителя принимает заявку
reject|Заявка не принята и отменяется
lho_calls|ЛО нарушителя делает заявку до исправления
proper_calls|Надлежащий игрок делает заявку в свою очередь
offender_calls|Нарушитель сам заменяет назначение до исправления
17D2|Торговля возвращается к пропустившему очередь; пасы отменены
25A|Ненамеренная заявка заменена; без исправления
25B1|Первая заявка взята назад, вторая остается
25B2|Замена отменена, исходная заявка остается
27A|Назначение принято как законное
27B1a|Ближайшее назначение той же деноминации, не искусственное: без исправления
27B1b|Замена с тем же или более точным значением: без исправления
27B2|Другое назначение или пас: партнер пасует до конца; ограничения на ход
27B3|Контра или реконтра отменяется; нарушитель заменяет, партнер пасует до конца
27B4|Снова недостаточное: как в 27Б3, если ЛО не примет
27C|Преждевременная замена остается; применяется 27Б
28A|ПО обязан пасовать: заявка считается в очередь, его пас записан
28B|Заявка надлежащего игрока: заявка вне очередности отменена, без исправления
29A|Заявка вне очередности принята, без исправления
30A|Нарушитель пасует в ближайшую очередь
30B1|Нарушитель пасует в ближайшую очередь
30B2|Нарушитель пасует до конца; партнер без контры и реконтры в эту очередь
30B3|Пас в очередь ЛО: изменение заявки (Правило 25)
31A1|ПО спасовал: нарушитель повторяет назначение, без исправления
31A2a|Та же деноминация: партнер пасует в ближайшую очередь
31A2b|Другая заявка: партнер пасует до конца; ограничения на ход
31B|Партнер нарушителя пасует до конца; ограничения на ход
32A|Партнер нарушителя пасует до конца; ограничение на ход 26Б
32B1|ПО спасовал: нарушитель повторяет контру/реконтру, без исправления
32B2|ПО сделал заявку: партнер нарушителя пасует до конца
36A|Недопустимая заявка и все последующие отменены; без исправления
36B|Отменена; нарушитель заменяет законной заявкой, партнер пасует до конца
37A|Заявка и последующие остаются в силе
37B|Отменена, пас восстановлен; оба нарушителя пасуют до конца
38|Отменено, заменено пасом; оба нарушителя пасуют до конца
39B|Заявка отменена; без исправления
39C|Заявка вистующего отменена; ограничения на ход
33|Одновременная заявка считается последующей
26A|Разыгрывающий может потребовать или запретить ход в масть
26B|Разыгрывающий может запретить ход в любую одну масть
""")

_EN = const("""
L25|Change of call
L27|Insufficient bid
L30|Pass out of rotation
L31|Bid out of rotation
L32|Double or redouble out of rotation
L36|Inadmissible double or redouble
L37|Action violating obligation to pass
L38|Bid of more than seven
L39|Call after the final pass
accept|Offender's LHO accepts the call
reject|The call is not accepted: cancelled
lho_calls|Offender's LHO calls before rectification
proper_calls|The player whose turn it was calls
offender_calls|Offender replaces the bid before rectification
17D2|Auction back to the player who lost his turn; the passes cancelled
25A|Unintended call replaced; no rectification
25B1|First call withdrawn, the substitute stands
25B2|Substitute cancelled, the original call stands
27A|The bid is accepted as legal
27B1a|Lowest sufficient bid, same strain, natural: no rectification
27B1b|Substitute with the same or a more precise meaning: no rectification
27B2|Other bid or pass: partner passes throughout; lead restrictions
27B3|Double or redouble cancelled; offender replaces; partner passes throughout
27B4|Another insufficient bid: as 27B3 unless LHO accepts it
27C|Premature replacement stands; 27B applies to it
28A|RHO must pass: the call is in rotation, his pass is recorded
28B|The proper player called: the call out of rotation is cancelled, no rectification
29A|Call out of rotation accepted, no rectification
30A|Offender passes at his next turn
30B1|Offender passes at his next turn
30B2|Offender passes throughout; partner may not double or redouble this turn
30B3|Pass at LHO's turn: a change of call (Law 25)
31A1|RHO passed: offender repeats his bid, no rectification
31A2a|Same strain repeated: partner passes at his next turn
31A2b|Another call: partner passes throughout; lead restrictions
31B|Offender's partner passes throughout; lead restrictions
32A|Offender's partner passes throughout; lead restriction 26B
32B1|RHO passed: offender repeats the double/redouble, no rectification
32B2|RHO called: offender's partner passes throughout
36A|The inadmissible call and all later calls cancelled; no rectification
36B|Cancelled; offender makes a legal call, partner passes throughout
37A|The call and later calls stand
37B|Cancelled, pass restored; both offenders pass throughout
38|Cancelled and replaced by a pass; both offenders pass throughout
39B|Call cancelled; no rectification
39C|Defender's call cancelled; lead restrictions
33|A simultaneous call is deemed subsequent
26A|Declarer may require or forbid the lead of the suit
26B|Declarer may forbid the lead of any one suit
""")

# situation|1 if the offender's LHO may accept|option:paragraph paragraph|option:...
_CHOICES = const("""
25|1|accept:25B1|lho_calls:25B1|reject:25B2
27|1|accept:27A|lho_calls:27A|reject:27B1a 27B1b 27B2 27B3 27B4|offender_calls:27C
27/B4|1|accept:27A|lho_calls:27A|reject:27B4
30/30A|1|accept:29A|lho_calls:29A|proper_calls:28B|reject:30A
30/30B1|1|accept:29A|lho_calls:29A|proper_calls:28B|reject:30B1
30/30B2|1|accept:29A|lho_calls:29A|reject:30B2
30/30B3|1|accept:30B3 25B1|lho_calls:30B3 25B1|reject:30B3 25B2
31/rho|1|accept:29A|lho_calls:29A|proper_calls:28B|reject:31A1 31A2a 31A2b
31/partner|1|accept:29A|lho_calls:29A|reject:31B
31/lho|1|accept:29A|lho_calls:29A|reject:31B
32/rho|1|accept:29A|lho_calls:29A|proper_calls:28B|reject:32B1 32B2
32/partner|1|accept:29A|lho_calls:29A|reject:32A
32/lho|1|accept:29A|lho_calls:29A|reject:32A
36|0|lho_calls:36A|reject:36B
36/rho|0|lho_calls:36A|proper_calls:28B|reject:36B
37|0|lho_calls:37A|reject:37B
38|0|lho_calls:38|reject:38
39|0|lho_calls:39B|reject:39B 39C
""")


def _line(table, key):
    """The fields after `key` on its line of table, or None."""
    i = table.find("\n" + key + "|")
    if i < 0:
        return None
    i += len(key) + 2
    return table[i:table.find("\n", i)].split("|")


def text(code, lang="ru"):
    """The short text of a law, option or paragraph ("ru" or "en")."""
    got = _line(_EN if lang == "en" else _RU, code)
    if got is None:
        raise KeyError(code)
    return got[0]


def choices(situation):
    """(may the offender's LHO accept?, ((option, paragraphs it leads to), ...)) of a
    situation named by `Auction.situation()`."""
    got = _line(_CHOICES, situation)
    if got is None:
        raise KeyError(situation)
    options = []
    for part in got[1:]:
        option, codes = part.split(":")
        options.append((option, tuple(codes.split(" "))))
    return got[0] == "1", tuple(options)


def explain(auction, lang="ru"):
    """(law, its title, seat that may accept or None, (option texts...)) for the pending
    irregularity, or None when nothing is pending. The paragraphs an option leads to are
    `paragraphs(auction, i, lang)`: a screen shows one or the other, and the texts of all
    at once are kilobytes of heap on the board."""
    situation = auction.situation()
    if situation is None:
        return None
    law = auction.pending[2]
    may_accept, options = choices(situation)
    return (law, text("L" + law, lang), (auction.pending[0] + 1) & 3 if may_accept else None,
            tuple(text(option, lang) for option, _ in options))


def paragraphs(auction, i, lang="ru"):
    """("27B1a: text", ...): the paragraphs option i of the pending irregularity leads to."""
    return tuple(code + ": " + text(code, lang)
                 for code in choices(auction.situation())[1][i][1])
