"""What the SQLite and PostgreSQL stores share: accounts kept as JSON records beside the
columns their lookups use."""
