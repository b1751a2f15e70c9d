"""storycore in a few lines: users, a story, publish, search, list, and reopen the file."""

import tempfile
from pathlib import Path

from storycore import Service
from storycore.adapters import open_store

database = Path(tempfile.mkdtemp()) / "stories.db"

with Service(open_store(f"sqlite:///{database}")) as service:
    service.accounts.create_user("alice", "correct horse battery", name="Alice")
    alice = service.accounts.as_user("alice")  # the host application vouches for alice

    draft = service.stories.create(
        "alice",
        {
            "title": "A walk by the harbour",
            "description": "Notes from a #sunday morning",
            "elements": [
                "https://socialA.example/bob/status/1",
                "https://photos.example/harbour.jpg",
                {"type": "text", "data": {"text": "<p>The fog lifted at <b>nine</b>.</p>"}},
            ],
        },
        viewer=alice,
    )
    print(draft.slug, draft.status)  # a-walk-by-the-harbour working

    service.stories.publish("alice", draft.slug, viewer=alice)
    print([item.title for item in service.catalog.search("harbour fog").items])
    print([story.slug for story in service.catalog.latest(tag="sunday").items])

with Service(open_store(f"sqlite:///{database}")) as service:
    story = service.stories.read("alice", "a-walk-by-the-harbour", per_page=2)
    print(
        story.status, [element.type for element in story.elements]
    )  # published ['quote', 'image']
