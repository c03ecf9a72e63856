"""One test per paragraph of the auction Laws (seed 001, section 5.4), through the replay tool.

Each docstring quotes the clause of the seed text that the test checks. Scenarios use the
shorthand of `auction_dsl` (SEAT:CALL[:flags], "ok" = director's accept, "no" = reject).
"""

import pytest
from auction_dsl import calls, run


def lead(out):
    return [(x["offender"], x["law"], x.get("suits")) for x in out["lead"]]


# -- Law 25: changes of call ------------------------------------------------------------------

def test_25a_unintended_call_replaced():
    """25А1: «До тех пор, пока его партнер не сделает заявку, игрок может заменить свою
    ненамеренно сделанную заявку заявкой, которую он был намерен сделать... Его вторая
    (намеренная) заявка остается в силе»."""
    out = run("N", "N:1S", "N:2S:u")
    assert calls(out) == "N:2S" and out["rulings"] == ["25A"] and out["turn"] == "E"


def test_25a_replacement_is_subject_to_the_laws():
    """25А1: «...и она подпадает под действие соответствующего Правила» (here Law 27)."""
    out = run("N", "N:1S", "E:2H", "E:1C:u")
    assert out["status"] == "director" and out["rulings"] == ["25A"]


def test_25a_after_the_final_pass():
    """25А3: «никакая замена не может произойти после окончания периода торговли» — so until
    then (the opening lead) the final pass may still be replaced."""
    out = run("N", "N:1S", "E:P", "S:P", "W:P", "W:2H:u")
    assert out["status"] == "auction" and calls(out) == "N:1S E:P S:P W:2H"


def test_change_after_lho_called_is_refused():
    """AUCTION_LOG.md: a change is made before LHO calls; afterwards the engine refuses it."""
    out = run("N", "N:1S", "E:P", "N:2S:u")
    assert out["refused"] == [2] and calls(out) == "N:1S E:P"


def test_25b1_deliberate_change_accepted():
    """25Б1: «Заменяющая заявка, не разрешенная пунктом А, может быть принята ЛО нарушителя
    (она принимается, если ЛО намеренно делает заявку после нее). Первая заявка берется
    назад, вторая заявка остается»."""
    out = run("N", "N:1S", "N:2S:d", "ok")
    assert calls(out) == "N:2S" and out["rulings"] == ["25B1"]
    out = run("N", "N:1S", "N:2S:d", "E:P")
    assert calls(out) == "N:2S E:P" and out["rulings"] == ["25B1"]


def test_25b2_deliberate_change_cancelled():
    """25Б2: «За исключением указанного в пункте 1, замена, не разрешенная пунктом А,
    отменяется. Исходная заявка остается, и торговля продолжается»."""
    out = run("N", "N:1S", "N:2S:d", "no")
    assert calls(out) == "N:1S" and out["rulings"] == ["25B2"] and out["turn"] == "E"


# -- Law 27: insufficient bid -----------------------------------------------------------------

def test_27a_accepted_by_director_entry_and_by_calling():
    """27А1: «Всякое недостаточное назначение может быть принято (трактовано как законное) по
    выбору ЛО нарушителя. Оно принимается, если этот игрок делает заявку»."""
    out = run("N", "N:1S", "E:1H", "ok")
    assert calls(out) == "N:1S E:1H" and out["rulings"] == ["27A"] and out["turn"] == "S"
    out = run("N", "N:1S", "E:1H", "S:P")
    assert calls(out) == "N:1S E:1H S:P" and out["rulings"] == ["27A"]


def test_27a2_insufficient_out_of_rotation_is_law_31():
    """27А2: «Если игрок делает недостаточное назначение вне очередности, то применяется
    Правило 31»."""
    out = run("N", "N:1S", "S:1H", "no", "E:P")
    assert out["rulings"] == ["31A1"]


def test_27b1a_lowest_bid_same_strain():
    """27Б1(а): «если недостаточное назначение исправлено ближайшим назначением той же
    деноминации и... оба... бесспорно не являются искусственными, то торговля продолжается
    без дальнейшего исправления»."""
    out = run("N", "N:1S", "E:1H", "no", "E:2H")
    assert out["status"] == "auction" and out["turn"] == "S"
    assert calls(out) == "N:1S E:2H" and out["rulings"] == ["27B1a"]
    assert out["must_pass"] == {} and out["lead"] == []


def test_27b1a_not_when_artificial():
    """27Б1(а) needs both bids «бесспорно не являются искусственными»: else 27Б2."""
    out = run("N", "N:1S", "E:1H:a", "no", "E:2H")
    assert out["rulings"] == ["27B2"] and out["must_pass"] == {"W": "throughout"}


def test_27b1b_same_meaning():
    """27Б1(б): «если... недостаточное назначение исправлено законной заявкой, которая, по
    мнению Судьи, имеет то же значение, что и (или более точное значение, чем) недостаточное
    назначение..., торговля продолжается без дальнейшего исправления»."""
    out = run("N", "N:1NT", "E:1C:a", "no", "E:2C:s")
    assert calls(out) == "N:1NT E:2C" and out["rulings"] == ["27B1b"]
    assert out["must_pass"] == {} and out["lead"] == []


def test_27b2_other_sufficient_bid_or_pass():
    """27Б2: «если недостаточное назначение исправлено достаточным назначением или пасом,
    партнер нарушителя обязан пасовать каждый раз в свою очередь делать заявку. Могут
    применяться ограничения на ход по Правилу 26»."""
    out = run("N", "N:1S", "E:1H", "no", "E:2NT")
    assert out["rulings"] == ["27B2"] and out["must_pass"] == {"W": "throughout"}
    assert lead(out) == [("E", "26A", ["H"])]
    out = run("N", "N:1S", "E:1H", "no", "E:P")
    assert calls(out) == "N:1S E:P" and lead(out) == [("E", "26A", ["H"])]


def test_27b2_partner_barred_throughout():
    """27Б2: «...обязан пасовать каждый раз в свою очередь»: a bid by W later is Law 37."""
    out = run("N", "N:1S", "E:1H", "no", "E:P", "S:2S", "W:3H")
    assert out["status"] == "director"


def test_26a1_suit_named_in_legal_auction():
    """26А1: «Если каждая такая масть была обозначена в законной торговле этим же игроком, то
    ограничения на ход нет»."""
    out = run("N", "N:1S", "E:1H", "no", "E:3H")
    assert out["rulings"] == ["27B2"] and out["lead"] == []


def test_27b3_double_attempted():
    """27Б3: «если нарушитель пытается заменить свое недостаточное назначение контрой или
    реконтрой, эта предпринятая заявка отменяется. Нарушитель обязан заменить ее, как это
    разрешено выше, и его партнер обязан пасовать каждый раз в свою очередь»."""
    out = run("N", "N:1S", "E:1H", "no", "E:X")
    assert out["status"] == "auction" and out["turn"] == "E" and calls(out) == "N:1S"
    assert out["rulings"] == ["27B3"] and out["must_pass"] == {"W": "throughout"}
    assert out["lead"] == []  # Law 26 waits for his final call
    out = run("N", "N:1S", "E:1H", "no", "E:X", "E:P")
    assert calls(out) == "N:1S E:P" and lead(out) == [("E", "26A", ["H"])]


def test_27b4_second_insufficient_bid():
    """27Б4: «Если нарушитель пытается заменить одно недостаточное назначение другим
    недостаточным назначением, Судья принимает решение, как в пункте 3, если только ЛО не
    принимает замененное недостаточное назначение»."""
    out = run("N", "N:1S", "E:1H", "no", "E:1D")
    assert out["status"] == "director"
    out = run("N", "N:1S", "E:1H", "no", "E:1D", "no")
    assert out["rulings"] == ["27B4"] and out["turn"] == "E"
    assert out["must_pass"] == {"W": "throughout"}
    out = run("N", "N:1S", "E:1H", "no", "E:1D", "no", "E:2D")
    assert lead(out) == [("E", "26A", ["H"])]
    out = run("N", "N:1S", "E:1H", "no", "E:1D", "ok")
    assert calls(out) == "N:1S E:1D" and out["rulings"] == ["27A"]


def test_27c_premature_replacement():
    """27В: «Если нарушитель заменяет свое недостаточное назначение прежде, чем Судья
    назначит исправление..., его замена остается. Судья применяет к замене соответствующий
    предшествующий раздел»."""
    out = run("N", "N:1S", "E:1H", "E:2H")
    assert calls(out) == "N:1S E:2H" and out["rulings"] == ["27C", "27B1a"]
    out = run("N", "N:1S", "E:1H", "E:2NT")
    assert out["rulings"] == ["27C", "27B2"] and out["must_pass"] == {"W": "throughout"}


# -- Laws 28, 29: calls considered in rotation, procedure after a call out of rotation ---------

def test_28a_rho_required_to_pass():
    """28А: «Заявка считается сделанной в порядке очередности, когда она делается игроком в
    очередь своего ПО, если этому оппоненту предписано правилом пасовать»."""
    out = run("N", "N:1S", "W:P", "no", "E:P", "S:2S", "N:3S")
    assert calls(out) == "N:1S E:P S:2S W:P N:3S" and out["rulings"] == ["30B2", "28A"]
    assert out["turn"] == "E"


def test_28b_proper_player_calls_first():
    """28Б: «Заявка считается сделанной в порядке очередности, если она сделана игроком в свою
    очередь до того, как назначено исправление за заявку оппонента вне очередности...
    Торговля продолжается так, как если бы оппонент не делал заявки вне очереди»."""
    out = run("N", "N:1S", "S:2S", "E:P")
    assert calls(out) == "N:1S E:P" and out["rulings"] == ["28B"] and out["must_pass"] == {}


def test_29a_lho_calls_after_call_out_of_rotation():
    """29А: «Вслед за заявкой вне очередности ЛО нарушителя может предпочесть сделать заявку,
    теряя тем самым право на какое-либо исправление»."""
    out = run("N", "N:1S", "S:2S", "W:P")
    assert calls(out) == "N:1S S:2S W:P" and out["rulings"] == ["29A"] and out["turn"] == "N"
    out = run("N", "N:1S", "S:2S", "ok")
    assert calls(out) == "N:1S S:2S" and out["turn"] == "W"


# -- Law 30: pass out of rotation -------------------------------------------------------------

def test_30a_before_any_bid():
    """30А: «Когда игрок спасовал вне очередности до того, как кто-либо из игроков сделал
    назначение, то нарушитель обязан спасовать в свою ближайшую очередь делать заявку»."""
    out = run("N", "E:P", "no")
    assert out["rulings"] == ["30A"] and out["must_pass"] == {"E": "next"} and out["turn"] == "N"
    out = run("N", "E:P", "no", "N:1S", "E:P")
    assert out["must_pass"] == {}


def test_30b1_at_rho_turn():
    """30Б1: «Когда пас вне очередности сделан в очередь ПО нарушителя после того, как
    кто-либо из игроков сделал назначение, то нарушитель обязан спасовать в свою ближайшую
    очередь делать заявку»."""
    out = run("N", "N:1S", "S:P", "no")
    assert out["rulings"] == ["30B1"] and out["must_pass"] == {"S": "next"}
    assert out["turn"] == "E" and calls(out) == "N:1S"


def test_30b2_at_partner_turn():
    """30Б2: «(а) ...нарушитель пасует вне очередности в очередь своего партнера делать
    заявку, нарушитель обязан пасовать каждый раз в свою очередь... (б) Партнер нарушителя
    может сделать любое достаточное назначение или может спасовать, но ему не разрешено давать
    контру или реконтру в эту очередь»."""
    out = run("N", "N:1S", "W:P", "no")
    assert out["rulings"] == ["30B2"] and out["must_pass"] == {"W": "throughout"}
    assert run("N", "N:1S", "W:P", "no", "E:X")["status"] == "director"
    assert run("N", "N:1S", "W:P", "no", "E:2H")["status"] == "auction"


def test_30b3_at_lho_turn_is_a_change_of_call():
    """30Б3: «После того, как кто-либо из игроков сделал назначение, пас вне очередности,
    сделанный в очередь ЛО нарушителя, трактуется как изменение заявки. Применяется
    Правило 25»."""
    out = run("N", "N:1S", "N:P", "no")
    assert calls(out) == "N:1S" and out["rulings"] == ["30B3", "25B2"]
    out = run("N", "N:1S", "N:P", "ok")
    assert calls(out) == "N:P" and out["rulings"] == ["30B3", "25B1"]


def test_30c_artificial_pass_is_law_31():
    """30В: «Когда пас вне очередности является искусственным..., вместо Правила 30
    применяется Правило 31»."""
    out = run("N", "E:P:a", "no", "N:1S", "E:2H")
    assert out["rulings"] == ["31A2b"] and out["must_pass"] == {"W": "throughout"}
    assert lead(out) == [("E", "26B", None)]


# -- Law 31: bid out of rotation --------------------------------------------------------------

def test_31a1_rho_passes_offender_repeats():
    """31А1: «Если этот оппонент пасует, то нарушитель обязан повторить заявку вне
    очередности, и если эта заявка законна, то исправления нет»."""
    out = run("N", "E:1H", "no", "N:P", "E:1H")
    assert calls(out) == "N:P E:1H" and out["rulings"] == ["31A1"] and out["must_pass"] == {}
    out = run("N", "E:1H", "no", "N:P", "E:2H")
    assert out["refused"] == [3] and out["turn"] == "E"


def test_31a2a_repeats_the_strain():
    """31А2(а): «повторяет деноминацию его назначения вне очередности, партнер нарушителя
    обязан спасовать в свою ближайшую очередь»."""
    out = run("N", "E:1H", "no", "N:1S", "E:2H")
    assert out["rulings"] == ["31A2a"] and out["must_pass"] == {"W": "next"}
    assert out["lead"] == []


def test_31a2b_another_strain():
    """31А2(б): «не повторяет деноминацию его назначения вне очередности... могут применяться
    ограничения на ход по Правилу 26 и партнер нарушителя обязан пасовать каждый раз»."""
    out = run("N", "E:1H", "no", "N:1S", "E:1NT")
    assert out["rulings"] == ["31A2b"] and out["must_pass"] == {"W": "throughout"}
    assert lead(out) == [("E", "26A", ["H"])]


def test_31b_at_partner_turn():
    """31Б: «Когда нарушитель сделал назначение в очередь своего партнера (или в очередь ЛО, и
    при этом он до того заявок не делал), то партнер нарушителя обязан пасовать каждый раз в
    свою очередь делать заявку... Могут применяться ограничения на ход по Правилу 26»."""
    out = run("N", "S:1H", "no")
    assert out["rulings"] == ["31B"] and out["must_pass"] == {"N": "throughout"}
    out = run("N", "S:1H", "no", "N:P", "E:P", "S:1NT")
    assert lead(out) == [("S", "26A", ["H"])]
    out = run("N", "W:1H", "no")  # at LHO's turn, before he had called
    assert out["rulings"] == ["31B"] and out["must_pass"] == {"E": "throughout"}


def test_29c_artificial_bid_out_of_rotation():
    """29В: «Если заявка вне очередности является искусственной, то положения Правил 30, 31 и
    32 применяются к обозначенным деноминации/деноминациям» — the engine cannot know the
    strains an artificial bid shows, so repeating its named strain is not 31А2(а)."""
    out = run("N", "E:2C:a", "no", "N:1S", "E:3C")
    assert out["rulings"] == ["31A2b"] and lead(out) == [("E", "26B", None)]


# -- Law 32: double or redouble out of rotation -----------------------------------------------

def test_32a_at_partner_turn():
    """32А: «Если контра или реконтра вне очередности была дана, когда очередь заявлять была у
    партнера нарушителя, то партнер нарушителя обязан каждый раз пасовать»; «может
    применяться ограничение на ход по Правилу 26Б»."""
    out = run("N", "N:1S", "W:X", "no", "E:P", "S:P", "W:2H")
    assert out["rulings"] == ["32A"] and out["must_pass"] == {"E": "throughout"}
    assert lead(out) == [("W", "26B", None)]


def test_32b1_rho_passes():
    """32Б1: «Если ПО нарушителя пасует, то нарушитель обязан повторить свою контру или
    реконтру, данную вне очередности, и исправления нет»."""
    out = run("N", "N:1S", "E:P", "W:X", "no", "S:P", "W:X")
    assert calls(out) == "N:1S E:P S:P W:X" and out["rulings"] == ["32B1"]
    assert out["must_pass"] == {} and out["lead"] == []


def test_32b2_rho_calls():
    """32Б2: «Если ПО нарушителя делает назначение, дает контру или реконтру, то нарушитель
    может в очередь сделать любую законную заявку, но партнер нарушителя обязан пасовать
    каждый раз в свою очередь»."""
    out = run("N", "N:1S", "E:P", "W:X", "no", "S:2S", "W:P")
    assert out["rulings"] == ["32B2"] and out["must_pass"] == {"E": "throughout"}
    assert lead(out) == [("W", "26B", None)]


def test_32_accepted_is_29a():
    """32: «Контра или реконтра вне очередности может быть принята по выбору оппонента,
    следующего по очередности (см. Правило 29)»."""
    out = run("N", "N:1S", "W:X", "ok")
    assert calls(out) == "N:1S W:X" and out["rulings"] == ["29A"]


# -- Law 33, Laws 17D2 / 34 -------------------------------------------------------------------

def test_33_simultaneous_call_is_subsequent():
    """33: «Заявка, сделанная одновременно с заявкой того игрока, чья очередь была делать
    заявку, считается последующей заявкой»."""
    out = run("N", "E:2H:t", "N:1S")
    assert calls(out) == "N:1S E:2H" and out["rulings"] == ["33"]


def test_17d2_three_passes_one_out_of_rotation():
    """17Д2: «Когда за какой-либо заявкой последовали три паса, то торговля не завершается,
    если один из этих пасов был сделан вне очередности и лишил одного из игроков права на
    заявку в эту очередь... торговля возвращается к игроку, который пропустил свою очередь.
    Все последующие пасы отменяются»; 34: «...применяется Правило 17Д2»."""
    out = run("N", "N:1S", "S:P", "W:P", "N:P")
    assert out["status"] == "auction" and out["turn"] == "E"
    assert calls(out) == "N:1S" and out["rulings"] == ["29A", "17D2"]


def test_17d2_four_passes():
    """17Д2 «за какой-либо заявкой»: a pass too, so four passes with one out of rotation."""
    out = run("N", "N:P", "S:P", "W:P", "N:P")
    assert out["status"] == "auction" and out["turn"] == "E" and calls(out) == "N:P"


# -- Laws 36-39: inadmissible calls -----------------------------------------------------------

def test_36a_lho_calls_before_rectification():
    """36А: «Если ЛО нарушителя делает заявку до исправления недопустимой контры или реконтры,
    то недопустимая заявка и все последующие заявки отменяются. Торговля возвращается к тому
    игроку, чья очередь была делать заявку... Ограничения на ход по Правилу 26 не
    применяются»."""
    out = run("N", "N:1S", "E:P", "S:X", "W:P")
    assert calls(out) == "N:1S E:P" and out["turn"] == "S" and out["rulings"] == ["36A"]
    assert out["must_pass"] == {} and out["lead"] == []


def test_36_never_accepted():
    """32: «...за исключением недопустимых контры или реконтры, которые никогда не разрешено
    принимать»."""
    out = run("N", "N:1S", "E:P", "S:X", "ok")
    assert out["refused"] == [3] and out["status"] == "director"


def test_36b_cancelled_and_replaced():
    """36Б: «1. Любая контра или реконтра, не разрешенная Правилом 19, отменяется. 2.
    Нарушитель обязан заменить ее законной заявкой..., а партнер нарушителя обязан каждый раз
    пасовать... Также могут применяться ограничения на ход по Правилу 26»."""
    out = run("N", "N:1S", "E:P", "S:X", "no")
    assert out["rulings"] == ["36B"] and out["turn"] == "S" and out["status"] == "auction"
    assert out["must_pass"] == {"N": "throughout"}
    out = run("N", "N:1S", "E:P", "S:X", "no", "S:2S")
    assert lead(out) == [("S", "26B", None)]


def test_36b4_out_of_rotation():
    """36Б4: «Если заявка была сделана вне очереди, торговля возвращается к тому игроку, чья
    была очередь делать заявку... а его партнер обязан каждый раз пасовать»."""
    out = run("N", "N:1S", "E:P", "N:XX", "no")
    assert out["rulings"] == ["36B"] and out["turn"] == "S"
    assert out["must_pass"] == {"S": "throughout"}


def test_37a_lho_calls_before_rectification():
    """37А: «...а ЛО нарушителя делает заявку до того, как Судья назначит исправление, то эта
    заявка и все последующие заявки остаются в силе. Если нарушителю было предписано пасовать
    до конца торговли, то он по-прежнему обязан пасовать»."""
    out = run("N", "E:P", "no", "N:1S", "E:2H", "S:P")
    assert calls(out) == "N:1S E:2H S:P" and out["rulings"] == ["30A", "37A"]
    assert out["must_pass"] == {} and out["lead"] == []
    out = run("N", "N:1S", "W:P", "no", "E:P", "S:P", "W:2H", "N:P")
    assert out["rulings"] == ["30B2", "37A"] and out["must_pass"] == {"W": "throughout"}


def test_37b_cancelled_pass_restored():
    """37Б: «1. Назначение, контра или реконтра со стороны игрока, которому предписано
    правилом пасовать, отменяются. 2. Пас восстанавливается, торговля продолжается, оба игрока
    нарушившей стороны обязаны пасовать каждый раз»."""
    out = run("N", "E:P", "no", "N:1S", "E:2H", "no")
    assert calls(out) == "N:1S E:P" and out["rulings"] == ["30A", "37B"]
    assert out["must_pass"] == {"E": "throughout", "W": "throughout"}
    assert lead(out) == [("E", "26A", ["H"])]


def test_38_bid_above_seven():
    """38Б, 38В: «Назначение выше семи отменяется вместе с последующими заявками. Необходима
    замена пасом, торговля продолжается..., и оба игрока нарушившей стороны обязаны пасовать
    каждый раз»; 38Г: «могут применяться ограничения на ход по Правилу 26»."""
    out = run("N", "N:1S", "E:8H", "no")
    assert calls(out) == "N:1S E:P" and out["rulings"] == ["38"]
    assert out["must_pass"] == {"E": "throughout", "W": "throughout"}
    assert lead(out) == [("E", "26A", ["H"])]


def test_38d_lho_called():
    """38Г: «...однако если ЛО нарушителя сделал заявку после нарушения, но до исправления, то
    к помощи этих Правил не прибегают» — his call is cancelled with the bid (38Б)."""
    out = run("N", "N:1S", "E:8H", "S:P")
    assert calls(out) == "N:1S E:P" and out["turn"] == "S" and out["lead"] == []
    assert out["must_pass"] == {"E": "throughout", "W": "throughout"}
    assert run("N", "N:1S", "E:8H", "ok")["refused"] == [2]


def test_39b_declaring_side_or_lho_called():
    """39А: «Все заявки, сделанные после заключительного паса торговли, отменяются»; 39Б:
    «Если ЛО нарушителя делает заявку до исправления или если нарушением является пас
    вистующего или любая заявка будущих разыгрывающего или болвана, то иного исправления
    нет»."""
    out = run("N", "N:1S", "E:P", "S:P", "W:P", "S:2S", "no")
    assert out["status"] == "ended" and out["contract"] == "1S" and out["rulings"] == ["39B"]
    out = run("N", "N:1S", "E:P", "S:P", "W:P", "E:2H", "S:P")
    assert out["rulings"] == ["39B"] and out["lead"] == []


def test_39c_defender_bids():
    """39В: «Если ЛО нарушителя после нарушения не сделал заявку и этим нарушением является
    назначение, контра или реконтра вистующего, то могут применяться ограничения на ход по
    Правилу 26»."""
    out = run("N", "N:1S", "E:P", "S:P", "W:P", "E:2H", "no")
    assert out["rulings"] == ["39C"] and lead(out) == [("E", "26A", ["H"])]
    assert calls(out) == "N:1S E:P S:P W:P" and out["declarer"] == "N"


def test_26b_other_withdrawn_calls():
    """26Б: «При взятии назад других заявок разыгрывающий может запретить партнеру нарушителя
    ходить в любую (одну) масть»: a withdrawn no-trump bid relates to no one suit."""
    out = run("N", "N:1S", "E:8NT", "no")
    assert lead(out) == [("E", "26B", None)]


@pytest.mark.parametrize("entry", ["ok", "no"])
def test_director_entry_with_nothing_pending_is_refused(entry):
    """AUCTION_LOG.md: a refused event changes nothing."""
    out = run("N", "N:1S", entry)
    assert out["refused"] == [1] and calls(out) == "N:1S"


# -- Law 10C1: what the director explains -----------------------------------------------------

EXPLAINED = [  # (events up to the pending call, one way on, paragraph that way rules)
    (("N:1S", "N:2S:d"), ("no",), "25B2"),
    (("N:1S", "E:1H"), ("no", "E:3H"), "27B2"),
    (("N:1S", "E:1H", "no", "E:1D"), ("no",), "27B4"),
    (("E:P",), ("no",), "30A"),
    (("N:1S", "S:P"), ("E:P",), "28B"),
    (("N:1S", "W:P"), ("no",), "30B2"),
    (("N:1S", "N:P"), ("ok",), "25B1"),
    (("E:1H",), ("no", "N:1S", "E:2H"), "31A2a"),
    (("S:1H",), ("no",), "31B"),
    (("W:1H",), ("N:P",), "29A"),
    (("N:1S", "E:P", "W:X"), ("no", "S:P"), "32B1"),
    (("N:1S", "W:X"), ("no",), "32A"),
    (("N:1S", "E:P", "S:X"), ("W:P",), "36A"),
    (("N:1S", "E:P", "N:XX"), ("no",), "36B"),
    (("E:P", "no", "N:1S", "E:2H"), ("no",), "37B"),
    (("N:1S", "E:8H"), ("S:P",), "38"),
    (("N:1S", "E:P", "S:P", "W:P", "E:2H"), ("no",), "39C"),
]


@pytest.mark.parametrize("before,after,ruled", EXPLAINED)
def test_10c1_options_explained_in_both_languages(before, after, ruled):
    """10В1: «Когда настоящие Правила предоставляют выбор действий после отклонения, Судья
    должен объяснить игрокам все доступные им возможности» — every pending irregularity
    shows its law, who may accept, and the options with the paragraphs they lead to; the
    paragraph the engine then applies is among them."""
    from auction_dsl import event
    from bridge.auction import Auction
    from bridge.replay import _event
    from bridge.rulings_text import explain, paragraphs, text

    def journal(texts):
        return [_event(event(t), "t") for t in texts]

    a = Auction.from_events(0, journal(before))
    assert a.status == "director"
    ru, en = explain(a, "ru"), explain(a, "en")
    assert ru[0] == en[0] == a.pending[2] and ru[1] != en[1] and len(ru[3]) == len(en[3])
    led = [paragraphs(a, i, "en") for i in range(len(en[3]))]
    assert ru[2] == en[2] and all(text(p.split(":")[0]) for ps in led for p in ps)
    listed = [p.split(":")[0] for ps in led for p in ps]
    b = Auction.from_events(0, journal(before + after))
    assert ruled in b.rulings[len(a.rulings):] and ruled in listed


def test_24_exposed_card_bars_partner_next_turn_and_never_weakens():
    """Law 24Б: «Если это единственная карта ранга онера или любая карта преждевременного
    хода, то партнер нарушителя обязан спасовать в свою ближайшую очередь делать заявку».
    An obligation to pass throughout (here 27B2) is not weakened by it, and the journal
    rebuilds it."""
    from bridge.auction import Auction
    from bridge.calls import parse

    a = Auction(0)
    a.card_exposed(1)  # East's honour exposed: West must pass at his next turn
    assert a.must_pass == {3: "next"}
    for seat, token in ((0, "1S"), (1, "P"), (2, "2S")):
        assert a.call(seat, parse(token)) is None
    assert a.call(3, parse("3H")) == "37"  # West is barred
    assert Auction.from_events(0, a.events).snapshot() == a.snapshot()

    b = Auction(0)
    b.call(0, parse("1S"))
    b.call(1, parse("1H"))
    b.reject()
    b.call(1, parse("P"))  # 27B2: West must pass throughout
    assert b.must_pass == {3: "throughout"}
    b.card_exposed(1)
    assert b.must_pass == {3: "throughout"}
    assert Auction.from_events(0, b.events).snapshot() == b.snapshot()


def test_every_paragraph_constant_cuts_its_own_label():
    """The engine names paragraphs by constants _P<label> cut from one string (no interned
    literals on the board); each must give back the label its name says, and every label in
    the string must have its constant."""
    from bridge import auction

    names = [n for n in vars(auction) if n.startswith("_P") and n[2:3].isdigit()]
    assert sorted(n[2:] for n in names) == sorted(auction._PARAGRAPHS.split())
    for n in names:
        assert auction._label(getattr(auction, n)) == n[2:]
