"""The report's words in Russian and English."""

from host_sync.errors import Refused

TEXTS = {
    "ru": {
        "results": "Итоги", "ranking": "Таблица результатов", "place": "Место",
        "pair": "Пара", "names": "Игроки", "total": "Сумма", "percent": "%",
        "boards": "Сдачи", "board": "Сдача", "traveller": "Протокол сдачи",
        "scorecard": "Карточка пары", "contract": "Контракт", "declarer": "Разыгр.",
        "lead": "Ход", "tricks": "Взятки", "score_ns": "Очки СЮ", "score_ew": "Очки ВЗ",
        "value_ns": "Результат СЮ", "value_ew": "Результат ВЗ", "frequency": "Частота записей",
        "hands": "Расклад", "dealer": "Сдающий", "vulnerable": "В зоне", "round": "Тур",
        "opponents": "Соперники", "direction": "Линия", "field_NS": "Линия Север-Юг",
        "field_EW": "Линия Восток-Запад", "field_": "Все пары", "adjusted": "Корр.",
        "method_mp": "матчпойнты", "method_cross-imps": "кросс-импы",
        "method_butler": "импы (Батлер)", "method_total": "сумма очков", "count": "Столов",
        "all_boards": "Все сдачи", "back": "К итогам", "chart_title": "Проценты пар",
        "vul_None": "никто", "vul_NS": "СЮ", "vul_EW": "ВЗ", "vul_All": "все",
        "seat_N": "Север", "seat_E": "Восток", "seat_S": "Юг", "seat_W": "Запад",
    },
    "en": {
        "results": "Results", "ranking": "Ranking", "place": "Place", "pair": "Pair",
        "names": "Players", "total": "Total", "percent": "%", "boards": "Boards",
        "board": "Board", "traveller": "Traveller", "scorecard": "Scorecard",
        "contract": "Contract", "declarer": "By", "lead": "Lead", "tricks": "Tricks",
        "score_ns": "NS score", "score_ew": "EW score", "value_ns": "NS result",
        "value_ew": "EW result", "frequency": "Score frequency", "hands": "Hands",
        "dealer": "Dealer", "vulnerable": "Vulnerable", "round": "Round",
        "opponents": "Opponents", "direction": "Direction", "field_NS": "North-South",
        "field_EW": "East-West", "field_": "All pairs", "adjusted": "Adj.",
        "method_mp": "matchpoints", "method_cross-imps": "cross-IMPs",
        "method_butler": "Butler IMPs", "method_total": "total points", "count": "Tables",
        "all_boards": "All boards", "back": "Back to the results",
        "chart_title": "Pair percentages",
        "vul_None": "none", "vul_NS": "NS", "vul_EW": "EW", "vul_All": "all",
        "seat_N": "North", "seat_E": "East", "seat_S": "South", "seat_W": "West",
    },
}
# the board, scorecard and director's pages: key -> (Russian, English), side by side
PAGE_TEXTS = {
    "top": ("Топ", "Top"),
    "dd": ("Взятки в открытую", "Double-dummy tricks"),
    "par": ("Пар", "Par"),
    "dd_limit": ("Без анализа в открытую: его делают не больше чем для %d сдач сессии",
                 "No double-dummy analysis: it is made for at most %d boards a session"),
    "hcp": ("оч.", "HCP"),
    "auction": ("Торговля", "Auction"),
    "table": ("Стол", "Table"),
    "notes": ("Примечания", "Notes"),
    "score": ("Очки", "Score"),
    "board_value": ("За сдачу", "Board"),
    "running": ("Нарастающий итог", "Running total"),
    "percent_ns": ("% СЮ", "NS %"),
    "percent_ew": ("% ВЗ", "EW %"),
    "director_page": ("Флаги и решения директора", "Director's flags and rulings"),
    "time": ("Время", "Time"),
    "kind": ("Запись", "Entry"),
    "law": ("Закон", "Law"),
    "what": ("Что", "What"),
    "state": ("Состояние", "State"),
    "detail": ("Подробности", "Detail"),
    "section": ("Секция", "Section"),
    "kind_flag": ("флаг", "flag"),
    "kind_ruling": ("решение", "ruling"),
    "state_open": ("открыт", "open"),
    "state_ruled": ("решён", "ruled"),
    "no_entries": ("Флагов и решений нет", "No flags or rulings"),
    "what_irregular": ("нарушение", "irregularity"),
    "what_dispute": ("спор", "dispute"),
    "what_accept": ("принять", "accept"),
    "what_reject": ("отклонить", "reject"),
    # a teams session (scoring.team_session)
    "team": ("Команда", "Team"),
    "team_results": ("Командный зачёт", "Team standings"),
    "event_results": ("Командный зачёт турнира", "Event team standings"),
    "session_vp": ("ВП с. %d", "VP s%d"),
    "matches": ("Матчи", "Matches"),
    "match_round": ("Матчи тура %d", "Round %d matches"),
    "vp": ("ВП", "VP"),
    "imps": ("ИМПы", "IMPs"),
    "imps_won": ("ИМПы +", "IMPs won"),
    "imps_lost": ("ИМПы −", "IMPs lost"),
    "played_matches": ("Матчей", "Played"),
    "byes": ("Свободных туров", "Byes"),
    "bye_round": ("Свободна от игры: %s (%s ВП)", "Bye: %s (%s VP)"),
    "unscored": ("сдача %d не считается: %s", "board %d not scored: %s"),
    "lang": ("ru", "en"),  # the language of these words (a refusal's text is picked by it)
    "byes_round": ("Свободны от игры: %s (по %s ВП)", "Byes: %s (%s VP each)"),
    "outside": ("Вне матчей, в счёт не идут (решает судья): %s",
                "Outside every match, counted for nobody (the director's to settle): %s"),
    "outside_line": ("сдача %s, тур %s, NS %s — EW %s", "board %s, round %s, NS %s v EW %s"),
    "group": ("Группа %s", "Group %s"),
    "home": ("Хозяева", "Home"),
    "away": ("Гости", "Away"),
    "waiting": ("ждут второго стола: %s", "waiting for the other table: %s"),
    "fouled": ("испорчена, ждёт присуждённого счёта: %s",
               "fouled, awaiting an adjusted score: %s"),
    "not_played": ("не сыграны по решению судьи: %s", "not played, the director ruled: %s"),
    "ruling_forfeit": ("техническое поражение: %s", "technical defeat: %s"),
    "ruling_technical": ("техническое поражение: %s (удалена, 5.7.3)",
                         "technical defeat: %s (removed, 5.7.3)"),
    "ruling_annulled": ("аннулирован: %s удалена (5.7.3)", "annulled: %s removed (5.7.3)"),
    "removed_team": ("Удалена с соревнования (5.7.3), место не сохраняется: %s — %s",
                     "Removed from the competition (5.7.3), keeps no place: %s — %s"),
    "method_teams": ("ИМПы матча в ВП (непрерывная шкала WBF)",
                     "match IMPs to VPs (WBF continuous scale)"),
    # a knockout round (scoring.knockout)
    "knockout": ("Матчи олимпийской системы", "Knockout matches"),
    "segment": ("Сегмент %d", "Segment %d"),
    "through": ("Проходит дальше", "Through"),
    "ko_tied": ("ничья", "tied"),
    "ko_under_way": ("идёт", "under way"),
    "ko_both_out": ("выбывают оба", "both out"),
    "method_knockout": ("сумма ИМПов за все сегменты (закон 12C4); ничью решает Положение",
                        "total IMPs over the segments (Law 12C4); a tie as the Regulations "
                        "decide"),
}
for _key, _words in PAGE_TEXTS.items():
    for _lang, _word in zip(("ru", "en"), _words):
        TEXTS[_lang][_key] = _word
LANGUAGES = tuple(TEXTS)


def texts(lang):
    if lang not in TEXTS:
        raise Refused("report language %r: expected one of %s" % (lang, ", ".join(TEXTS)),
                      ru="язык отчёта %r: ожидался один из %s" % (lang, ", ".join(TEXTS)))
    return TEXTS[lang]
