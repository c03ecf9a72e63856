"""`host-sync team withdraw|forfeit|through|reinstate`: the director's rulings on a teams
session's matches (host_sync.event.team_rulings, a knockout's ties host_sync.event.
knockout_draw), which `score`, `report`, the live page and the next round's draw apply."""

from host_sync.cli.lang import EVENT_DB, say, tr
from host_sync.cli.setup import actions, actor_option
from host_sync.event import knockout_draw, team_rulings
from host_sync.event.db import open_db


def warn_if_drawn_otherwise(args, db, session, err):
    """After a correction, or on `score`: say so when a knockout session's results no longer
    give the next round's bracket (knockout_draw.drawn_otherwise)."""
    changed = knockout_draw.drawn_otherwise(db, session)
    if changed is not None:
        err.write(say(args, "warning: %s\n", "внимание: %s\n") % changed.text(args.lang))


def run_withdraw(args, out, err):
    with open_db(args.db) as db:
        r = team_rulings.rule(db, args.team, args.reason, None, args.section, args.session,
                              args.actor)
    out.write(say(args, "team %d of section %s removed from the competition (5.7.3): %s\n",
                  "команда %d секции %s удалена с соревнования (5.7.3): %s\n") % (
        r.team, r.letter, r.reason))
    return 0


def run_forfeit(args, out, err):
    with open_db(args.db) as db:
        r = team_rulings.rule(db, args.team, args.reason, args.round, args.section,
                              args.session, args.actor)
    out.write(say(args, "team %d of section %s: a technical defeat in round %d: %s\n",
                  "команде %d секции %s техническое поражение в туре %d: %s\n") % (
        r.team, r.letter, r.round, r.reason))
    return 0


def run_through(args, out, err):
    with open_db(args.db) as db:
        m = knockout_draw.decide_tie(db, args.team, args.reason, args.section, args.session,
                                     args.actor)
    out.write(say(args, "%s v %s, tied: team %d goes through: %s\n",
                  "%s — %s, ничья: проходит команда %d: %s\n") % (
        m.home, m.away, args.team, args.reason.strip()))
    return 0


def run_reinstate(args, out, err):
    with open_db(args.db) as db:
        if args.through:
            if args.round is not None:
                raise team_rulings.TeamRulingError(
                    "--through takes back a tie's decision, not a round's defeat: one of the "
                    "two", ru="--through отменяет решение о ничьей, а не поражение в туре: "
                    "что-то одно")
            knockout_draw.undo_tie(db, args.team, args.section, args.session, args.actor)
        else:
            team_rulings.lift(db, args.team, args.round, args.section, args.session,
                              args.actor)
    out.write(say(args, "team %d: the ruling is taken back\n",
                  "команда %d: решение отменено\n") % args.team)
    return 0


def add_commands(sub):
    team = actions(sub.add_parser("team", help=tr(
        "the director's rulings on a teams session: a team removed, a match forfeited, a "
        "knockout's tie decided", "решения судьи в командной сессии: удаление команды, "
        "техническое поражение, решение ничьей в олимпийской системе")),
        "team_command")
    withdraw = _ruling_parser(team, "withdraw", tr(
        "remove a team from the session's competition (rule book 5.7.3)",
        "удалить команду с соревнования (Правила, 5.7.3)"), tr(
        "In a round robin or a Swiss, a team that has played more than half of its matches "
        "(over every session of the stage) gets technical defeats in the rest; otherwise the "
        "results of the matches it played are annulled. In a knockout it loses every match "
        "still to come, the one under way too; the rounds before stand. It keeps no place.",
        "В круговом турнире или швейцарской системе команде, сыгравшей больше половины "
        "матчей (по всем сессиям этапа), в оставшихся засчитывается техническое поражение, "
        "иначе результаты сыгранных ею матчей аннулируются. В олимпийской системе ей "
        "засчитывается поражение во всех предстоящих матчах, и в идущем тоже; прошлые туры "
        "остаются. Занятое место не сохраняется."))
    withdraw.add_argument("--reason", required=True, help=tr("why, for the record",
                                                             "причина, для протокола"))
    withdraw.set_defaults(run=run_withdraw)
    forfeit = _ruling_parser(team, "forfeit", tr(
        "a technical defeat for a team in one match", "техническое поражение команде в матче"),
        tr("The team gets no VP for its match of the round, its opponents the bye's VPs "
           "(event set --bye-vp).", "Команда не получает ВП за матч тура, соперники получают "
           "ВП свободного тура (event set --bye-vp)."))
    forfeit.add_argument("--round", type=int, required=True, help=tr("the match's round",
                                                                     "тур матча"))
    forfeit.add_argument("--reason", required=True, help=tr("why, for the record",
                                                            "причина, для протокола"))
    forfeit.set_defaults(run=run_forfeit)
    through = _ruling_parser(team, "through", tr(
        "the team that went through a tied knockout match", "команда, прошедшая после ничьей "
        "в матче олимпийской системы"), tr(
        "Equal totals of IMPs decide nothing (rule book 1.5.4): once the Regulations have "
        "decided the tie (extra boards or otherwise), name the team that goes through, in the "
        "session the match was played in; the final's tie too. The next round's draw takes it.",
        "Равная сумма ИМПов ничего не решает (Правила, 1.5.4): когда ничья решена по "
        "Положению (дополнительными сдачами или иначе), назовите прошедшую команду в сессии, "
        "где играли матч; ничью в финале тоже. Жеребьёвка следующего тура её учтёт."))
    through.add_argument("--reason", required=True, help=tr(
        "how the tie was decided, for the record", "как решена ничья, для протокола"))
    through.set_defaults(run=run_through)
    reinstate = _ruling_parser(team, "reinstate", tr(
        "take back a removal, a technical defeat or a tie's decision", "отменить удаление, "
        "техническое поражение или решение о ничьей"), tr(
        "With --round, the defeat in that round; with --through, the team named through a "
        "tie; without, the removal.", "С --round — поражение в этом туре, с --through — "
        "решение о ничьей, без них — удаление."))
    reinstate.add_argument("--round", type=int, help=tr("the technical defeat's round",
                                                        "тур технического поражения"))
    reinstate.add_argument("--through", action="store_true", help=tr(
        "the decision that the team went through a tie", "решение, что команда прошла после "
        "ничьей"))
    reinstate.set_defaults(run=run_reinstate)


def _ruling_parser(sub, name, help, description):
    """`team NAME EVENT.db --team N [--section X] [--session N] [--actor NAME]`."""
    p = sub.add_parser(name, help=help, description=description)
    p.add_argument("db", metavar="EVENT.db", help=EVENT_DB)
    p.add_argument("--team", type=int, required=True, help=tr(
        "the team's number in its section", "номер команды в секции"))
    p.add_argument("--section", help=tr("the section letter (needed when there are several)",
                                        "буква секции (нужна, если их несколько)"))
    p.add_argument("--session", type=int, metavar="N", help=tr(
        "the session (default: the current one)", "сессия (по умолчанию текущая)"))
    actor_option(p)
    return p
