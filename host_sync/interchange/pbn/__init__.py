"""PBN 2.1 (the standard's text: ../shared/ref/pbn_v21.txt beside a team checkout): the reader,
the writer, supplemental tables, the Laws check of each game, rescoring, sessions as games."""
