-- The scoring database of one event (plain SQL: SQLite here, PostgreSQL where several sync
-- stations feed one event). Every change to these tables is written with an `audit` row in the
-- same transaction (host_sync.db). Seats are 0..3 = N, E, S, W; calls and cards are the codes
-- of bridge.calls and bridge.cards; board numbers are as printed on the boards.

CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    key         TEXT NOT NULL,          -- hex of the event's secret: terminal keys derive from it
    created_at  TEXT NOT NULL
);

CREATE TABLE settings (                 -- what the terminals are told (language, PIN hash...)
    event_id    INTEGER NOT NULL REFERENCES events(id),
    name        TEXT NOT NULL,
    value       TEXT NOT NULL,          -- JSON
    PRIMARY KEY (event_id, name)
);

CREATE TABLE sessions (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events(id),
    number      INTEGER NOT NULL,
    name        TEXT NOT NULL DEFAULT '',
    current     INTEGER NOT NULL DEFAULT 0,   -- 1 for the session being played now
    movement    TEXT,                   -- JSON of host_sync.movements.Movement.to_dict()
    UNIQUE (event_id, number)
);

CREATE TABLE sections (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions(id),
    letter      TEXT NOT NULL,
    UNIQUE (session_id, letter)
);

CREATE TABLE pairs (
    id          INTEGER PRIMARY KEY,
    section_id  INTEGER NOT NULL REFERENCES sections(id),
    number      INTEGER NOT NULL,
    UNIQUE (section_id, number)
);

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    pair_id     INTEGER NOT NULL REFERENCES pairs(id),
    position    INTEGER NOT NULL,       -- 1 or 2 within the pair
    name        TEXT NOT NULL,
    UNIQUE (pair_id, position)
);

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    section_id  INTEGER NOT NULL REFERENCES sections(id),
    number      INTEGER NOT NULL,
    UNIQUE (section_id, number)
);

CREATE TABLE boards (                   -- boards and deals (hand records)
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions(id),
    number      INTEGER NOT NULL,
    dealer      INTEGER NOT NULL,
    vul         TEXT NOT NULL,          -- 'None', 'NS', 'EW', 'All'
    deal        TEXT,                   -- PBN Deal tag value, NULL when not dealt in advance
    UNIQUE (session_id, number)
);

CREATE TABLE terminals (
    id          TEXT PRIMARY KEY,       -- the device's identity (hex of its unique id)
    event_id    INTEGER NOT NULL REFERENCES events(id),
    key         TEXT NOT NULL,          -- hex of the HMAC-SHA256 key given at registration
    name        TEXT NOT NULL DEFAULT '',
    registered_at TEXT NOT NULL,
    base_seq    INTEGER NOT NULL,       -- journal sequence it had when registered
    last_seq    INTEGER NOT NULL,       -- last sequence durably stored here
    session_id  INTEGER REFERENCES sessions(id),  -- session its records belong to
    section     TEXT,                   -- where it is placed (at registration, or learned
    table_no    INTEGER,                --   from the round it opens)
    last_seen   TEXT
);

CREATE TABLE rounds (                   -- one table in one round: who sits where, which boards
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables(id),
    number      INTEGER NOT NULL,
    ns_pair     INTEGER,                -- pair numbers of the section
    ew_pair     INTEGER,
    terminal_id TEXT REFERENCES terminals(id),  -- the terminal that opened it (first claim)
    closed      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (table_id, number)
);

CREATE TABLE round_boards (
    round_id    INTEGER NOT NULL REFERENCES rounds(id),
    board       INTEGER NOT NULL,
    PRIMARY KEY (round_id, board)
);

CREATE TABLE records (                  -- every journal record as received: the raw truth
    terminal_id TEXT NOT NULL REFERENCES terminals(id),
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    body        TEXT NOT NULL,          -- JSON of the record
    round_id    INTEGER REFERENCES rounds(id),
    board       INTEGER,
    received_at TEXT NOT NULL,
    PRIMARY KEY (terminal_id, seq)
);

CREATE TABLE results (                  -- traveller lines: the host's own reading of the facts
    id          INTEGER PRIMARY KEY,
    round_id    INTEGER NOT NULL REFERENCES rounds(id),
    board       INTEGER NOT NULL,
    bid         INTEGER,                -- contract (NULL when passed out or not known)
    risk        INTEGER,
    declarer    INTEGER,
    passed_out  INTEGER NOT NULL DEFAULT 0,
    source      TEXT NOT NULL,          -- 'auction', 'quick' or 'adjusted'
    tricks      INTEGER,
    score_ns    INTEGER,                -- Law 77 score for NS computed here, NULL if unscorable
    shown_ns    INTEGER,                -- what the terminal showed
    verified    INTEGER NOT NULL DEFAULT 0,
    adjustment  TEXT,                   -- JSON of the director's adj record
    terminal_id TEXT REFERENCES terminals(id),
    seq         INTEGER,                -- the record that last set this line
    UNIQUE (round_id, board)
);

CREATE TABLE calls (                    -- every call as made at the table, legal or not
    terminal_id TEXT NOT NULL REFERENCES terminals(id),
    seq         INTEGER NOT NULL,
    round_id    INTEGER NOT NULL REFERENCES rounds(id),
    board       INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    call        INTEGER NOT NULL,
    event       INTEGER NOT NULL,       -- the bridge.lawcodes journal event (flags included)
    law         TEXT,                   -- the law the engine held it under, NULL if it stood
    PRIMARY KEY (terminal_id, seq)
);

CREATE TABLE rulings (                  -- director entries and the law paragraphs applied
    id          INTEGER PRIMARY KEY,
    terminal_id TEXT NOT NULL REFERENCES terminals(id),
    seq         INTEGER NOT NULL,
    round_id    INTEGER NOT NULL REFERENCES rounds(id),
    board       INTEGER NOT NULL,
    entry       TEXT,                   -- 'accept' / 'reject' for a dir record, else NULL
    law         TEXT                    -- a paragraph the engine applied, e.g. '27B1a'
);

CREATE TABLE flags (                    -- the director's list
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER REFERENCES sessions(id),
    round_id    INTEGER REFERENCES rounds(id),
    board       INTEGER,
    terminal_id TEXT REFERENCES terminals(id),
    seq         INTEGER,                -- the record that raised it
    source      TEXT NOT NULL,          -- 'terminal' (a flag record) or 'host' (re-validation)
    why         TEXT NOT NULL,
    law         TEXT,
    detail      TEXT NOT NULL DEFAULT '',
    resolved    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (terminal_id, seq, why)
);

CREATE TABLE syncs (                    -- one row per sync session: what came, what was refused
    id          INTEGER PRIMARY KEY,
    terminal_id TEXT REFERENCES terminals(id),
    port        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    stored      INTEGER NOT NULL DEFAULT 0,
    duplicates  INTEGER NOT NULL DEFAULT 0,
    refused     TEXT NOT NULL DEFAULT '{}',  -- JSON: reason -> count
    outcome     TEXT                    -- 'done' or the reason it stopped
);

CREATE TABLE audit (
    id          INTEGER PRIMARY KEY,
    at          TEXT NOT NULL,
    actor       TEXT NOT NULL,          -- 'sync', 'scorer', 'director', a command name
    terminal_id TEXT,
    tbl         TEXT NOT NULL,
    row_key     TEXT NOT NULL,          -- JSON of the row's key
    action      TEXT NOT NULL,          -- 'insert', 'update', 'delete'
    old         TEXT,                   -- JSON of the replaced values
    new         TEXT                    -- JSON of the new values
);

CREATE INDEX records_round_board ON records (round_id, board, terminal_id, seq);
CREATE INDEX calls_round_board ON calls (round_id, board, seq);
CREATE INDEX results_board ON results (board);
CREATE INDEX flags_session ON flags (session_id, resolved);
