-- What the double-dummy solver (DDS through endplay) said of each deal a report showed:
-- solving costs a good part of a second a deal, and a report is made again and again in an
-- evening, so host_sync.reports.analysis.board_analyses keeps it here. The key is the deal
-- itself (its PBN Deal value, upper-cased, single spaces) with the board's dealer and
-- vulnerability (the par depends on them): a corrected hand record is a new key, solved again.
-- analysis: JSON {"tricks": {seat: [C, D, H, S, NT tricks]}, "score": NS points of the par,
-- "par": [[level, strain, declarer, risk, tricks over or under], ...]}; read back checked.

CREATE TABLE double_dummy (
    deal        TEXT NOT NULL,
    dealer      INTEGER NOT NULL,       -- seat 0..3
    vul         TEXT NOT NULL,          -- 'None', 'NS', 'EW', 'All'
    analysis    TEXT NOT NULL,
    solved_at   TEXT NOT NULL,
    PRIMARY KEY (deal, dealer, vul)
);
