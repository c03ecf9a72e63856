"""The sync station: bytes on a serial port to verified records in the event database
(frames, one sync conversation, many ports, the Raspberry Pi's indicators, ingest)."""
