"""Reacting to every change in Python, without an HTTP endpoint (docs/webhooks.md)."""

import json

from storycore import Service
from storycore.adapters import open_store

service = Service(open_store("memory://"))
service.accounts.create_user("ed", editor=True)  # an editor, who signs in by a token
ed = service.accounts.as_user("ed")
service.stories.create("ed", {"title": "Harbour lights"}, viewer=ed, publish=True)

cursor = None  # keep it between runs (a file, a row): the log goes on from there
for item in service.events.after(cursor, 100):
    data = json.loads(item.event.data)
    print(item.event.type, data.get("slug") or data.get("username"))
    cursor = item.cursor

service.stories.unpublish("ed", "harbour-lights", viewer=ed)
print([item.event.type for item in service.events.after(cursor, 100)])
