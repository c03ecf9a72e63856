"""The live page's own words, Russian and English, beside the report's (reports.i18n)."""

from host_sync.reports.i18n import texts

WORDS = {
    "ru": {
        "live": "Итоги онлайн", "held": "Публикация результатов приостановлена директором.",
        "embargo": "Сдача появляется здесь, когда её сыграли все столы.",
        "own": "Ваша карточка: видны только сыгранные вами сдачи, с результатами всех столов, "
               "сыгравших их.",
        "none_yet": "Пока нет сдач, сыгранных всеми столами.",
        "missing": "Нет такой страницы",
        "missing_text": "Такой страницы нет, или её результаты ещё не опубликованы.",
        "updated": "Обновлено", "public_card": "Общая карточка",
        "held_boards": "Директор приостановил сдачи",
    },
    "en": {
        "live": "Live results", "held": "The director is holding the results.",
        "embargo": "A board appears here when every table has played it.",
        "own": "Your scorecard: only the boards you have played, with the results of every "
               "table that has played them.",
        "none_yet": "No board has been played by every table yet.",
        "missing": "No such page",
        "missing_text": "There is no such page, or its results are not published yet.",
        "updated": "Updated", "public_card": "Public scorecard",
        "held_boards": "Boards held by the director",
    },
}


def words(lang):
    """The report's texts with the live page's added (Refused for an unknown language)."""
    return dict(texts(lang), **WORDS[lang])
