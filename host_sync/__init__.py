"""The host side: sync service, scoring database, scoring, import/export, reports."""
