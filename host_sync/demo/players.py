"""The simulated club: players' names (mostly Russian, some English) and federation numbers,
written as the names CSV and the hand-record PBN a scorer would import (docs/SETUP.md)."""

import csv

from bridge import boards as law2
from bridge.seats import SEATS

# (male, female) first names; surnames in their male form (the female one adds "а").
RU_FIRST = (("Александр", "Анна"), ("Борис", "Вера"), ("Владимир", "Галина"),
            ("Дмитрий", "Дарья"), ("Евгений", "Елена"), ("Игорь", "Ирина"),
            ("Константин", "Ксения"), ("Михаил", "Мария"), ("Николай", "Наталья"),
            ("Олег", "Ольга"), ("Павел", "Полина"), ("Сергей", "Светлана"),
            ("Юрий", "Татьяна"), ("Андрей", "Людмила"))
RU_SURNAMES = ("Иванов", "Петров", "Смирнов", "Кузнецов", "Соколов", "Попов", "Лебедев",
               "Козлов", "Новиков", "Морозов", "Волков", "Соловьёв", "Васильев", "Зайцев",
               "Павлов", "Семёнов", "Голубев", "Виноградов", "Богданов", "Воробьёв")
EN_FIRST = ("James", "Emily", "Oliver", "Sarah", "George", "Helen", "Thomas", "Alice")
EN_SURNAMES = ("Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Walker", "Wright")


def player_name(rng, used):
    """A name not in `used` (which it joins): Russian three times in four."""
    while True:
        if rng.random() < 0.75:
            male, female = rng.choice(RU_FIRST)
            surname = rng.choice(RU_SURNAMES)
            name = "%s %s" % (male, surname) if rng.random() < 0.6 else \
                "%s %sа" % (female, surname)
        else:
            name = "%s %s" % (rng.choice(EN_FIRST), rng.choice(EN_SURNAMES))
        if name not in used:
            used.add(name)
            return name


def club(rng, pairs):
    """{pair: [(name, federation number), (name, federation number)]} for these pairs."""
    used, numbers = set(), rng.sample(range(1001, 99999), 2 * len(pairs))
    return {p: [(player_name(rng, used), numbers[2 * i]), (player_name(rng, used),
                                                          numbers[2 * i + 1])]
            for i, p in enumerate(pairs)}


def write_names(path, section, players):
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(("section", "pair", "player1", "player2", "number1", "number2"))
        for pair, ((a, na), (b, nb)) in sorted(players.items()):
            out.writerow((section, pair, a, b, na, nb))


def write_deals(path, event_name, deals):
    """The hand records as PBN games: Board, Dealer and Vulnerable of Law 2, and Deal."""
    with open(path, "w", encoding="utf-8") as f:
        for b, deal in sorted(deals.items()):
            f.write('[Event "%s"]\n[Board "%d"]\n[Dealer "%s"]\n[Vulnerable "%s"]\n'
                    '[Deal "%s"]\n\n' % (event_name, b, SEATS[law2.dealer(b)],
                                         law2.vulnerability(b), deal))
