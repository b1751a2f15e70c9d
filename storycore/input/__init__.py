"""Reading what a client sends, member by member: typed readers that name the field of every
fault (``fields``), the kinds a write's members are declared by, from which both their reader
and their schema are made (``declared``), and the member types of element objects
(``member_types``).

Above the rules and the settings (limits), below the model (``docs/architecture.md``).
"""
