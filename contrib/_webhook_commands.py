"""The webhook commands: ``webhooks add|list|remove|deliveries|redeliver|key`` and
``deliver`` (docs/webhooks.md)."""

from __future__ import annotations

import argparse

from storycore.model.shapes import WebhookShape
from storycore.model.visibility import OPERATOR
from storycore.rules.webhook_secrets import new_key
from storycore.service import Service

__all__ = [
    "add",
    "deliver",
    "deliveries",
    "key",
    "list_webhooks",
    "redeliver",
    "remove",
]


def add(service: Service, args: argparse.Namespace) -> None:
    made = service.webhooks.add(args.url, args.events, private=args.private, viewer=OPERATOR)
    print(f"created webhook {made.id} for {', '.join(made.events)}; its secret (shown once):")
    print(made.secret)


def list_webhooks(service: Service, args: argparse.Namespace) -> None:
    page = 1
    while True:
        listed = service.webhooks.list(viewer=OPERATOR, page=page, per_page=100)
        for hook in listed.items:
            print(f"{hook.id}\t{_state(hook)}\t{','.join(hook.events)}\t{hook.url}")
        if not listed.has_next:
            return
        page += 1


def remove(service: Service, args: argparse.Namespace) -> None:
    print(f"removed webhook {service.webhooks.remove(args.id, viewer=OPERATOR).id}")


def deliveries(service: Service, args: argparse.Namespace) -> None:
    shown = service.webhooks.deliveries(args.id, viewer=OPERATOR, page=args.page, per_page=100)
    for d in shown.items:
        status = "-" if d.last_status is None else str(d.last_status)
        print(f"{d.event}\t{d.type}\t{d.state}\t{d.attempts}\t{status}"
              f"\t{d.next_attempt or '-'}\t{d.last_error or ''}")  # fmt: skip


def redeliver(service: Service, args: argparse.Namespace) -> None:
    again = service.webhooks.redeliver(args.id, args.event, viewer=OPERATOR)
    print(f"{again.event} to {args.id}: due again at {again.next_attempt}")


def key(args: argparse.Namespace) -> None:
    """A new key for ``STORYCORE_WEBHOOK_KEY``: no store, no service."""
    print(new_key())


def deliver(service: Service, args: argparse.Namespace) -> None:
    print(f"made {service.deliver()} delivery attempts")


def _state(hook: WebhookShape) -> str:
    if hook.disabled is not None:
        return f"disabled since {hook.disabled}"
    if hook.failing is not None:
        return f"failing since {hook.failing}"
    return "active"
