"""Every word the terminal shows, Russian first and English second, in one table.

`t(key)` gives the text in the current language (`set_lang`). Lines are written to fit the
21-column screen; texts with `%s`/`%d` are filled by the caller. Russian is the default
(the players of the seed documents are Russian).

The table is one string, a line per text: `key|Russian|English`. A string constant stays in
the ROMFS image with the bytecode, while a dict of tuples would cost about 18 KB of heap on
the 64-bit unix port. It is read as bytes: MicroPython's `find` and slices on a str count
characters, a scan of the UTF-8 from its start at each call (~36 µs a lookup on the unix
port, a third of a key's time), where on bytes they are byte offsets. In the ROMFS image the
keys are numbers (tools/romfs.py) and a lookup starts at its line's offset (`_AT`, 0.5 KB);
a key by name (the source tree, and the few keys the image keeps by name) is found in the
table.
"""

from terminal import const

LANGS = ("ru", "en")
_lang = [0]  # the index in LANGS of the language shown

_T = const("""
start|Начало сессии|Start of session
section|Секция|Section
table|Стол|Table
round|Раунд|Round
boards|Сдачи|Boards
bd_range|Сдачи %d-%d|Boards %d-%d
bd_first|Сдачи 1|Boards 1
bd_last|Сдачи 2|Boards 2
players|Игроки|Players
ok_go|OK далее|OK continue
ok_yes|OK да   BACK нет|OK yes   BACK no
menu_edit|MENU ввести вручную|MENU type it in
no_config|Нет конфигурации|No configuration
type_in|Ввод вручную|Enter by hand
updown_field|\u2191\u2193 поле, цифры|\u2191\u2193 field, digits
next_go|Далее: NS\u2192%s EW\u2192%s|Next: NS\u2192%s EW\u2192%s
stay|ост.|stay
next_board|OK сдача %d|OK board %d
close_round|OK закрыть раунд|OK close the round
close_ask|Закрыть раунд %d?|Close round %d?
no_more|Потом исправит только директор|Then only the director corrects
session_end|Сессия окончена|Session over
thanks|Спасибо за игру!|Thank you!
choose_board|Сдача: _|Board: _
out_of_order|Не по порядку!|Out of order!
wrong_board|Не из этого раунда!|Not in this round!
played_before|Уже игралась парой!|Played by a pair!
law15|Правило 15: директор|Law 15: director
brd|Сд|Bd
brd_pairs|Сд%d %d-%d|Bd%d %d-%d
dealer|Сд:|Dlr:
vul|Зона:|Vul:
vul_none|нет|none
vul_all|все|all
turn|Ход:|Call:
pass|Пас|Pass
ranks|2 3 4 5 6 7 8 9 10 В Д К Т|2 3 4 5 6 7 8 9 10 J Q K A
nt|БК|NT
called_by|Заявка игрока|Call by
risk_seat|X/XX; \u2663С \u2666В \u2665Ю \u2660З|X/XX; \u2663N \u2666E \u2665S \u2660W
change|Замена заявки|Change of call
unintended|случайная 25A|unintended 25A
deliberate|намеренная 25B|deliberate 25B
no_change|Менять нечего: пр.25|No call to change: 25
no_pending|Решать нечего|Nothing to rule on
pd_card|Карта %s не подходит|Card %s does not fit
pd_trick|Взятка %d не подходит|Trick %d does not fit
pd_tricks|Взяток %d не может быть|%d tricks: not possible
pd_seat|%s здесь ни при чём|Not %s's matter
pd_suit|Масть %s не подходит|Suit %s does not fit
pd_option|Сейчас так нельзя|Not possible now
td_wait|Ждите директора|Wait for the director
must_repeat|%s: повторите %s|%s must repeat %s
no_call|Заявок еще нет|No call to change
level_first|Сначала уровень 1-7|The level first: 1-7
strain_next|Теперь масть или БК|Now the strain or NT
passed_out|Пас все|Passed out
contract|Контракт|Contract
quick|Быстрый ввод|Quick entry
quick_help|уровень,масть,X,игрок|level,strain,X,seat
levels|1-7|1-7
levels_po|1-7, PASS: пас все|1-7, PASS: passed out
lead|Первый ход|Opening lead
lead_help|масть, затем карта|suit, then the card
honours|2-9 0=10 \u2663В \u2666Д \u2665К \u2660Т|2-9 0=10 \u2663J \u2666Q \u2665K \u2660A
lead_skip|OK без хода|OK no lead
review|Торговля|Auction
scroll|\u2191\u2193|\u2191\u2193
review_key|PASS: торговля|PASS: the auction
lead_by|ходит %s|%s leads
no_review|Торговля не записана|No auction recorded
review_over|Первый ход сделан|The lead is faced
lead_not_lho|Ходит ЛО разыгр.: %s|Leader is LHO: %s
card_refused|Карта не принята|Card not accepted
restrict|Ограничения хода|Lead restrictions
restrict_26|!огр.хода 26|!lead restr. 26
tricks|Взятки разыгрывающего|Tricks by declarer
tricks_help|цифры, \u2191\u2193 +/-|digits, \u2191\u2193 +/-
ok_record|OK записать|OK record
verify|Проверка|Verification
opp_ok|Противники: OK верно|Opponents: OK agree
opp_back|BACK неверно|BACK disagree
ok_next|OK далее|OK next
back_correct|BACK исправить|BACK correct
adjusted|Скорректирован|Adjusted
ns_pct|NS %d%%|NS %d%%
ew_pct|EW %d%%|EW %d%%
pct_part|%d%% %s|%d%% %s
not_played|Не игралась|Not played
tricks_short|взяток|tricks
menu|Меню|Menu
m_seat|\u2663\u2666\u2665\u2660 заявка С/В/Ю/З|\u2663\u2666\u2665\u2660 call by N/E/S/W
m_quick|1 быстрый ввод|1 quick entry
m_boards|2 сдачи раунда|2 round's boards
m_lang|3 English|3 Русский
m_sound|4 звук вкл/выкл|4 sound on/off
m_keys|5 клавиатура|5 the keypad
kp_title|Клавиатура|The keypad
kp_1|\u2663ВС \u2666ДВ \u2665КЮ \u2660ТЗ  БК|\u2663JN \u2666QE \u2665KS \u2660AW  NT
kp_2|1   2   3   PASS \u2191|1   2   3   PASS \u2191
kp_3|4   5   6   X    \u2193|4   5   6   X    \u2193
kp_4|7   8   9   XX   MENU|7   8   9   XX   MENU
kp_5|BACK 0  OK       DIR|BACK 0  OK       DIR
kp_note|\u2663: масть,карта,игрок|\u2663: suit, card, player
back|BACK назад|BACK back
director|ДИРЕКТОР|DIRECTOR
td_alarm|!!! ДИРЕКТОР !!!|!!! DIRECTOR !!!
call_td|Вызовите директора|Call the director
law|Пр.%s|Law %s
td_pin|PIN: %s|PIN: %s
td_call_ok|OK вызвать директора|OK call the director
td_pin_help|или PIN и OK|or PIN and OK
td_called|Директор вызван|Director called
td_bad_pin|Неверный PIN|Wrong PIN
td_menu|Директор|Director
td_flags|1 флаги (%d)|1 flags (%d)
td_rule|2 решение: пр.%s|2 rule: law %s
td_adjust|3 корр. результат|3 adjusted score
td_erase|4 стереть результат|4 erase the result
td_restrict|5 ограничения хода|5 lead restrictions
td_fix|2 исправление 79C|2 correction 79C
td_closed|раунд закрыт: пр.79C|closed round: law 79C
td_cc_over|Срок исправл. истёк|Correction time over
td_cc_1|Срок исправлений|Correction period
td_cc_2|истёк (пр.79C)|is over (law 79C)
fix_now|сейчас: %s|now: %s
fix_unknown|сейчас: протокола нет|now: no traveller
td_board|\u2191\u2193 сд 6 связь BACK|\u2191\u2193 bd 6 pair BACK
flags|Флаги|Flags
td_guided|Директор: заявка|Director: call by
write_error|Ошибка записи!|Write error!
no_flags|Флагов нет|No flags
accept_by|Принять может: %s|May accept: %s
nobody|никто|nobody
options|Цифра: вариант|Digit: option
apply|OK применить|OK apply
ok_back|OK, BACK|OK, BACK
next_call|Следующая заявка: %s|Next call: %s
repl|Замена назначения|Replacement bid
repl_1|1 естественная 27B1a|1 natural 27B1a
repl_2|2 то же знач. 27B1b|2 same meaning 27B1b
repl_3|3 искусственная|3 artificial
o_accept|принять (ЛО)|LHO accepts
o_reject|не принимать|not accepted
o_lho|ЛО заявляет|LHO calls
o_proper|заявляет очередной|proper player calls
o_offender|нарушитель заменяет|offender replaces
no_accept|Принять нельзя|Cannot be accepted
adj_menu|Скорр. результат|Adjusted score
adj_art|1 искусств. 60/50/40|1 artificial 60/50/40
adj_asg|2 назначенный|2 assigned
adj_wgt|3 взвешенный 12C1c|3 weighted 12C1c
adj_np|4 не игралась|4 not played
art_help|4/5/6 \u2192 40/50/60%|4/5/6 \u2192 40/50/60%
part|Часть %d, всего %d%%|Part %d, total %d%%
percent|Процент: %s|Percent: %s
erase_ask|Стереть результат?|Erase the result?
erased|Результат стерт|Result erased
nothing|Нечего стирать|Nothing to erase
no_restrict|Ограничений нет|No restrictions
why_dircall|вызов|call
why_wrong_board|чужая сдача|wrong board
why_played_before|уже игралась|played before
why_out_of_order|не по порядку|out of order
why_dispute|спор|dispute
why_irregular|нарушение|irregularity
why_refusals|отказы|refusals
trick_no|Взятка %d|Trick %d
to_play|Ход:|To play:
trick_won|взяла %s|won by %s
tricks_won|взятки %d:%d|tricks %d:%d
card_by|Карта игрока %s|Card by %s
play_help|масть,ранг; MENU меню|suit,rank; MENU menu
played_card|%s уже сыграна|%s already played
penalty|Штр.:|Pen.:
m_play_seat|\u2663\u2666\u2665\u2660 карта С/В/Ю/З|\u2663\u2666\u2665\u2660 card by N/E/S/W
m_claim|1 претензия|1 claim
m_no_play|5 ввод взяток|5 enter the tricks
claim|Претензия|Claim
claimer|Заявляет: %s|Claimer: %s
claim_tricks|Взяток из %d: %s|Tricks of %d: %s
claim_help|\u2663\u2666\u2665\u2660 игрок, цифры|\u2663\u2666\u2665\u2660 player, digits
claim_ask|Противники согласны?|Opponents agree?
claim_side|Взяток стороне %s: %s|Tricks to %s: %s
claim_trick|Доиграйте взятку|Finish the trick
claim_yes|OK да: согласны|OK yes: agreed
claim_no|BACK нет: директор|BACK no: director
concession|Уступка|Concession
conceder|Уступает: %s|Concedes: %s
claim_kind|\u2191\u2193 претенз./уступка|\u2191\u2193 claim/concede
claim_object|X возражение 68Б2|X objection 68B2
play_on|OK играть дальше|OK play on
played_tricks|Розыгрыш: %d взяток|Play: %d tricks
revoke_fix|Исправить ренонс (62Б)|Correct the revoke (62B)
suit_ask|Масть: \u2663\u2666\u2665\u2660|Suit: \u2663\u2666\u2665\u2660
card_ask|Карта: %s|Card: %s
tricks_ask|Взяток: %s|Tricks: %s
seat_ask|Игрок: \u2663\u2666\u2665\u2660=С/В/Ю/З|Player: \u2663\u2666\u2665\u2660=N/E/S/W
trick_ask|Взятка %s, карта: %s|Trick %s, card: %s
left|Остаток:|Left:
trav|Протокол сд.%d|Traveller bd %d
trav_none|Результатов нет|No results yet
trav_key|\u2193 протокол|\u2193 traveller
m_trav|1 протокол сд.%d|1 traveller bd %d
syncing|Синхронизация|Syncing
sync_help|Не вынимайте кабель|Keep the cable in
sync_recs|Записей: %d|Records: %d
pair_title|Связь со станцией|Pair with station
pair_code|Код: %s %s|Code: %s %s
pair_help|Наберите на станции|Type it at station
pair_valid|Действует 3 минуты|Valid for 3 minutes
pair_tries|Попыток: %d|Tries left: %d
pair_back|BACK отменить|BACK cancel
pair_ok|Станция связана|Paired with station
pair_closed|Закрыто: неверный код|Closed: wrong codes
pair_expired|Время кода вышло|The code expired
pair_no_link|Нет связи со станцией|No station link
-- start-up and self-test (issue 18, terminal.boot) --
boot_fw|ПО MicroPython %s|MicroPython %s
boot_id|ID %s|ID %s
boot_tbl|Секция %s  Стол %s|Section %s  Table %s
cfg_none|Нет конфигурации|No configuration
cfg_none1|Подключите терминал|Connect the terminal
cfg_none2|к станции: host-sync|to the station:
cfg_none3|setup, затем sync|host-sync setup, sync
cfg_bad|Конфиг. повреждена|Configuration damaged
cfg_bad1|Ошибка: %s|Error: %s
cfg_bad2|Повторите sync со|Sync again from
cfg_bad3|станции (host-sync)|the sync station
boot_key|Любая клавиша: далее|Any key: continue
fault|Сбой терминала|Terminal fault
fault1|Записано в error.log|Logged in error.log
fault2|Данные сохранены|No data was lost
fault3|Позовите директора|Call the director
fault4|OK: перезапуск|OK: restart
st_title|Самопроверка|Self-test
st_keys|Клавиши: %d из %d|Keys: %d of %d
st_last|Нажата: %s|Pressed: %s
st_flash|Флеш: %s, своб. %dK|Flash: %s, free %dK
st_ok|исправна|OK
st_bad|ОШИБКА|FAILED
st_all|Все клавиши работают|Every key works
st_exit|Держите НАЗАД: выход|Hold BACK to leave
maint|Обслуживание|Maintenance
maint1|USB: REPL открыт|USB: REPL open
maint2|make flash, затем|make flash, then
maint3|перезапуск питания|power-cycle
flash_full|Флеш полна: sync!|Flash full: sync!
td_locked|PIN заблокирован|PIN locked
td_lock_why|%d неверных PIN|%d wrong PINs
td_lock_left|Ждите ещё %d мин.|Wait %d more min
td_lock_host|Хост видит все входы|The host lists them
""")


_B = _T.encode()  # the table's bytes (on MicroPython the str's own, not a copy)


def _numbered():
    """The offset in _B of the `|` after each numbered key, two bytes big-endian each (`n|`
    at _AT[2n], _AT[2n + 1]; bytes, as an array's type code would be one more name)."""
    count = 0
    i = _B.find(b"\n")
    while 0 <= i < len(_B) - 1:
        count += 0x30 <= _B[i + 1] <= 0x39
        i = _B.find(b"\n", i + 1)
    at = bytearray(2 * count)
    i = _B.find(b"\n")
    while 0 <= i < len(_B) - 1:
        if 0x30 <= _B[i + 1] <= 0x39:
            j = _B.find(b"|", i)
            n = 2 * int(_B[i + 1:j])
            at[n], at[n + 1] = j >> 8, j & 0xFF
        i = _B.find(b"\n", i + 1)
    return at


_AT = _numbered()


# The texts made lately in the current language, a slot each by key (a key's number in the
# ROMFS image, else its hash), emptied on a change of language. Each text made anew is a new
# str, which MicroPython first looks up among the interned names (~7,000 instructions on the
# unix port with the app's ~900 names) and puts on the heap with its bytes, and a screen shows
# the same words at every key. One list of a fixed size made at start-up (a dict growing on a
# fragmented heap was a MemoryError in the heap guard), defined before `set_lang`: a private
# const() is folded only into the code that follows it.
_SLOTS = const(16)  # 32: a median key within 2% and 2 KiB more heap (BENCHMARKS.md)
_SHORT = const(21)  # only texts of a line at most are kept: the rulings' paragraphs are not
_made = [None] * (2 * _SLOTS)  # key, text, key, text...


def set_lang(lang):
    """'ru' or 'en'; anything else keeps the current language."""
    if lang in LANGS and LANGS.index(lang) != _lang[0]:
        _lang[0] = LANGS.index(lang)
        for i in range(2 * _SLOTS):
            _made[i] = None
        _seats[0] = None


def lang():
    return LANGS[_lang[0]]


def t(key):
    """The text of `key` in the current language (the key itself if the table lacks it).
    In the ROMFS image most keys are small ints (tools/romfs.py)."""
    i = 2 * ((key if type(key) is int else hash(key)) % _SLOTS)
    if _made[i] == key:
        return _made[i + 1]
    text = _text(key)
    if len(text) <= _SHORT:
        _made[i], _made[i + 1] = key, text
    return text


def _text(key):
    """t(key) read from the table."""
    if type(key) is int and 0 <= 2 * key < len(_AT):
        i = _AT[2 * key] << 8 | _AT[2 * key + 1]
    else:
        i = _B.find(("\n%s|" % (key,)).encode())
        if i < 0:
            return key
        i = _B.find(b"|", i + 1)
    j = _B.find(b"|", i + 1)
    if _lang[0]:
        i, j = j, _B.find(b"\n", j + 1)
    return str(_B[i + 1:j], "utf-8")


_seats = [None]  # the four seat names of the current language, made on first use


def seat(s):
    """The one-letter seat name: С В Ю З or N E S W, "" if s is not a seat. Each is a slice
    of the language's four (indexing a str would intern the letter as a qstr for good),
    made once per language."""
    names = _seats[0]
    if names is None:
        text = ("\u0421\u0412\u042e\u0417", "NESW")[_lang[0]]
        names = _seats[0] = (text[0:1], text[1:2], text[2:3], text[3:4])
    return names[s] if 0 <= s < 4 else ""
