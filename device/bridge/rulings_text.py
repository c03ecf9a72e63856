"""What the director explains at the table (Law 10C1): one table of data, Russian and English.

For a pending irregularity, `Auction.situation()` names its row in CHOICES: the options the
director must explain and the paragraphs each can lead to (the engine decides which, from the
calls that follow). TEXTS gives every law ("L27"), option and paragraph ("27B2") a short
text in both languages. `explain(auction, lang)` puts them together for the terminal's screen.
"""

from bridge.seats import lho

RU, EN = 0, 1

# situation -> (may the offender's LHO accept?, ((option, paragraphs it leads to), ...))
CHOICES = {
    "25": (True, (("accept", ("25B1",)), ("lho_calls", ("25B1",)), ("reject", ("25B2",)))),
    "27": (True, (("accept", ("27A",)), ("lho_calls", ("27A",)),
                  ("reject", ("27B1a", "27B1b", "27B2", "27B3", "27B4")),
                  ("offender_calls", ("27C",)))),
    "27/B4": (True, (("accept", ("27A",)), ("lho_calls", ("27A",)), ("reject", ("27B4",)))),
    "30/30A": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)),
                      ("proper_calls", ("28B",)), ("reject", ("30A",)))),
    "30/30B1": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)),
                       ("proper_calls", ("28B",)), ("reject", ("30B1",)))),
    "30/30B2": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("reject", ("30B2",)))),
    "30/30B3": (True, (("accept", ("30B3", "25B1")), ("lho_calls", ("30B3", "25B1")),
                       ("reject", ("30B3", "25B2")))),
    "31/rho": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("proper_calls", ("28B",)),
                      ("reject", ("31A1", "31A2a", "31A2b")))),
    "31/partner": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("reject", ("31B",)))),
    "31/lho": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("reject", ("31B",)))),
    "32/rho": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("proper_calls", ("28B",)),
                      ("reject", ("32B1", "32B2")))),
    "32/partner": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("reject", ("32A",)))),
    "32/lho": (True, (("accept", ("29A",)), ("lho_calls", ("29A",)), ("reject", ("32A",)))),
    "36": (False, (("lho_calls", ("36A",)), ("reject", ("36B",)))),
    "36/rho": (False, (("lho_calls", ("36A",)), ("proper_calls", ("28B",)), ("reject", ("36B",)))),
    "37": (False, (("lho_calls", ("37A",)), ("reject", ("37B",)))),
    "38": (False, (("lho_calls", ("38",)), ("reject", ("38",)))),
    "39": (False, (("lho_calls", ("39B",)), ("reject", ("39B", "39C")))),
}

TEXTS = {
    # laws
    "L25": ("Изменение заявки", "Change of call"),
    "L27": ("Недостаточное назначение", "Insufficient bid"),
    "L30": ("Пас вне очередности", "Pass out of rotation"),
    "L31": ("Назначение вне очередности", "Bid out of rotation"),
    "L32": ("Контра или реконтра вне очередности", "Double or redouble out of rotation"),
    "L36": ("Недопустимая контра или реконтра", "Inadmissible double or redouble"),
    "L37": ("Нарушение обязанности пасовать", "Action violating obligation to pass"),
    "L38": ("Назначение выше семи", "Bid of more than seven"),
    "L39": ("Заявка после заключительного паса", "Call after the final pass"),
    # options
    "accept": ("ЛО нарушителя принимает заявку", "Offender's LHO accepts the call"),
    "reject": ("Заявка не принята и отменяется", "The call is not accepted: cancelled"),
    "lho_calls": ("ЛО нарушителя делает заявку до исправления",
                  "Offender's LHO calls before rectification"),
    "proper_calls": ("Надлежащий игрок делает заявку в свою очередь",
                     "The player whose turn it was calls"),
    "offender_calls": ("Нарушитель сам заменяет назначение до исправления",
                       "Offender replaces the bid before rectification"),
    # paragraphs
    "17D2": ("Торговля возвращается к пропустившему очередь; пасы отменены",
             "Auction back to the player who lost his turn; the passes cancelled"),
    "25A": ("Ненамеренная заявка заменена; без исправления",
            "Unintended call replaced; no rectification"),
    "25B1": ("Первая заявка взята назад, вторая остается",
             "First call withdrawn, the substitute stands"),
    "25B2": ("Замена отменена, исходная заявка остается",
             "Substitute cancelled, the original call stands"),
    "27A": ("Назначение принято как законное", "The bid is accepted as legal"),
    "27B1a": ("Ближайшее назначение той же деноминации, не искусственное: без исправления",
              "Lowest sufficient bid, same strain, natural: no rectification"),
    "27B1b": ("Замена с тем же или более точным значением: без исправления",
              "Substitute with the same or a more precise meaning: no rectification"),
    "27B2": ("Другое назначение или пас: партнер пасует до конца; ограничения на ход",
             "Other bid or pass: partner passes throughout; lead restrictions"),
    "27B3": ("Контра или реконтра отменяется; нарушитель заменяет, партнер пасует до конца",
             "Double or redouble cancelled; offender replaces; partner passes throughout"),
    "27B4": ("Снова недостаточное: как в 27Б3, если ЛО не примет",
             "Another insufficient bid: as 27B3 unless LHO accepts it"),
    "27C": ("Преждевременная замена остается; применяется 27Б",
            "Premature replacement stands; 27B applies to it"),
    "28A": ("ПО обязан пасовать: заявка считается в очередь, его пас записан",
            "RHO must pass: the call is in rotation, his pass is recorded"),
    "28B": ("Заявка надлежащего игрока: заявка вне очередности отменена, без исправления",
            "The proper player called: the call out of rotation is cancelled, no rectification"),
    "29A": ("Заявка вне очередности принята, без исправления",
            "Call out of rotation accepted, no rectification"),
    "30A": ("Нарушитель пасует в ближайшую очередь", "Offender passes at his next turn"),
    "30B1": ("Нарушитель пасует в ближайшую очередь", "Offender passes at his next turn"),
    "30B2": ("Нарушитель пасует до конца; партнер без контры и реконтры в эту очередь",
             "Offender passes throughout; partner may not double or redouble this turn"),
    "30B3": ("Пас в очередь ЛО: изменение заявки (Правило 25)",
             "Pass at LHO's turn: a change of call (Law 25)"),
    "31A1": ("ПО спасовал: нарушитель повторяет назначение, без исправления",
             "RHO passed: offender repeats his bid, no rectification"),
    "31A2a": ("Та же деноминация: партнер пасует в ближайшую очередь",
              "Same strain repeated: partner passes at his next turn"),
    "31A2b": ("Другая заявка: партнер пасует до конца; ограничения на ход",
              "Another call: partner passes throughout; lead restrictions"),
    "31B": ("Партнер нарушителя пасует до конца; ограничения на ход",
            "Offender's partner passes throughout; lead restrictions"),
    "32A": ("Партнер нарушителя пасует до конца; ограничение на ход 26Б",
            "Offender's partner passes throughout; lead restriction 26B"),
    "32B1": ("ПО спасовал: нарушитель повторяет контру/реконтру, без исправления",
             "RHO passed: offender repeats the double/redouble, no rectification"),
    "32B2": ("ПО сделал заявку: партнер нарушителя пасует до конца",
             "RHO called: offender's partner passes throughout"),
    "36A": ("Недопустимая заявка и все последующие отменены; без исправления",
            "The inadmissible call and all later calls cancelled; no rectification"),
    "36B": ("Отменена; нарушитель заменяет законной заявкой, партнер пасует до конца",
            "Cancelled; offender makes a legal call, partner passes throughout"),
    "37A": ("Заявка и последующие остаются в силе", "The call and later calls stand"),
    "37B": ("Отменена, пас восстановлен; оба нарушителя пасуют до конца",
            "Cancelled, pass restored; both offenders pass throughout"),
    "38": ("Отменено, заменено пасом; оба нарушителя пасуют до конца",
           "Cancelled and replaced by a pass; both offenders pass throughout"),
    "39B": ("Заявка отменена; без исправления", "Call cancelled; no rectification"),
    "39C": ("Заявка вистующего отменена; ограничения на ход",
            "Defender's call cancelled; lead restrictions"),
    "33": ("Одновременная заявка считается последующей",
           "A simultaneous call is deemed subsequent"),
    "26A": ("Разыгрывающий может потребовать или запретить ход в масть",
            "Declarer may require or forbid the lead of the suit"),
    "26B": ("Разыгрывающий может запретить ход в любую одну масть",
            "Declarer may forbid the lead of any one suit"),
}


def text(code, lang="ru"):
    """The short text of a law, option or paragraph ("ru" or "en")."""
    return TEXTS[code][EN if lang == "en" else RU]


def explain(auction, lang="ru"):
    """(law, its title, seat that may accept or None, ((option text, (paragraph texts...)),))
    for the pending irregularity, or None when nothing is pending."""
    situation = auction.situation()
    if situation is None:
        return None
    law = auction.pending[2]
    may_accept, options = CHOICES[situation]
    return (law, text("L" + law, lang), lho(auction.pending[0]) if may_accept else None,
            tuple((text(option, lang), tuple(code + ": " + text(code, lang) for code in codes))
                  for option, codes in options))
