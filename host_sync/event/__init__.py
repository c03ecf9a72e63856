"""The event database: schema and migrations, audited writes, the event's set-up, and its
results read back as a scoring session."""
