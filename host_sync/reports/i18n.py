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
        "top": "Топ", "dd": "Взятки в открытую", "par": "Пар", "hcp": "оч.",
        "auction": "Торговля", "table": "Стол", "notes": "Примечания", "score": "Очки",
        "board_value": "За сдачу", "running": "Нарастающий итог", "percent_ns": "% СЮ",
        "percent_ew": "% ВЗ", "director_page": "Флаги и решения директора", "time": "Время",
        "kind": "Запись", "law": "Закон", "what": "Что", "state": "Состояние",
        "detail": "Подробности", "section": "Секция", "kind_flag": "флаг",
        "kind_ruling": "решение", "state_open": "открыт", "state_ruled": "решён",
        "no_entries": "Флагов и решений нет", "what_irregular": "нарушение",
        "what_dispute": "спор", "what_accept": "принять", "what_reject": "отклонить",
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
        "top": "Top", "dd": "Double-dummy tricks", "par": "Par", "hcp": "HCP",
        "auction": "Auction", "table": "Table", "notes": "Notes", "score": "Score",
        "board_value": "Board", "running": "Running total", "percent_ns": "NS %",
        "percent_ew": "EW %", "director_page": "Director's flags and rulings", "time": "Time",
        "kind": "Entry", "law": "Law", "what": "What", "state": "State", "detail": "Detail",
        "section": "Section", "kind_flag": "flag", "kind_ruling": "ruling",
        "state_open": "open", "state_ruled": "ruled", "no_entries": "No flags or rulings",
        "what_irregular": "irregularity", "what_dispute": "dispute", "what_accept": "accept",
        "what_reject": "reject",
    },
}
LANGUAGES = tuple(TEXTS)


def texts(lang):
    if lang not in TEXTS:
        raise Refused("report language %r: expected one of %s" % (lang, ", ".join(TEXTS)))
    return TEXTS[lang]
