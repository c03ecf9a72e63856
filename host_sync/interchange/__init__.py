"""Every file format a scorer meets, read and write: PBN (with its check and rescore), USEBIO,
travellers CSV, names CSV, hand records."""
