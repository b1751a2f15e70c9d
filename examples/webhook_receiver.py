"""A webhook receiver in FastAPI that checks every delivery storycore signs (docs/webhooks.md).

Run: STORYCORE_WEBHOOK_SECRET=whsec_... uvicorn examples.webhook_receiver:app --port 8001
"""

import os

from fastapi import FastAPI, HTTPException, Request
from standardwebhooks import Webhook, WebhookVerificationError

app = FastAPI()
# the secret `storycore webhooks add` (or POST /v1/webhooks) showed, once
verifier = Webhook(os.environ["STORYCORE_WEBHOOK_SECRET"])
handled: dict[str, dict] = {}  # a real receiver keeps these in its database


@app.post("/storycore-events", status_code=204)
async def storycore_event(request: Request) -> None:
    body = await request.body()
    try:
        # checks the signature, and that the timestamp is within 5 minutes (replays)
        event = verifier.verify(body, dict(request.headers))
    except WebhookVerificationError:
        raise HTTPException(status_code=400, detail="not signed by storycore") from None
    event_id = request.headers["webhook-id"]
    if event_id in handled:
        return  # delivered at least once: a retry of an event already handled
    handled[event_id] = event
    if event["type"] == "story.published":
        print("published:", event["data"]["permalink"])
