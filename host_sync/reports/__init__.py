"""HTML results of a session: rankings, travellers, scorecards, frequency charts, hand records."""
