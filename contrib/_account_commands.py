"""The commands that keep users and applications: ``users create|list|set-password`` and
``apps create|list|grant|revoke|rotate-key`` (docs/decisions.md#command-line)."""

from __future__ import annotations

import argparse

from storycore.service import Service

from ._options import password

__all__ = [
    "create_app",
    "create_user",
    "list_apps",
    "list_users",
    "rotate_key",
    "set_delegation",
    "set_password",
]


def create_user(service: Service, args: argparse.Namespace) -> None:
    profile = service.accounts.create_user(
        args.username, password(args), name=args.name, email=args.email, plan=args.plan,
        editor=args.editor, can_feature=args.can_feature,
    )  # fmt: skip
    print(f"created user {profile.username}")


def set_password(service: Service, args: argparse.Namespace) -> None:
    service.accounts.set_password(args.username, password(args))
    print(f"set the password of {args.username}")


def list_users(service: Service, args: argparse.Namespace) -> None:
    page = 1
    while True:
        listed = service.accounts.list(page=page, per_page=100)
        for user in listed.items:
            print(f"{user.username}\t{user.name}")
        if not listed.has_next:
            return
        page += 1


def create_app(service: Service, args: argparse.Namespace) -> None:
    made = service.accounts.create_app(args.name, delegation=args.delegation)
    print(f"created application {made.app.name}; its api key (shown once):")
    print(made.api_key)


def list_apps(service: Service, args: argparse.Namespace) -> None:
    for app in service.accounts.apps():
        grant = "delegation" if app.delegation else "-"
        print(f"{app.name}\t{grant}\t{app.created}")


def rotate_key(service: Service, args: argparse.Namespace) -> None:
    made = service.accounts.rotate_key(args.name)
    print(f"new api key of {made.app.name} (shown once; the old one no longer works):")
    print(made.api_key)


def set_delegation(service: Service, args: argparse.Namespace) -> None:
    """``apps grant`` and ``apps revoke``."""
    app = service.accounts.set_delegation(args.name, args.action == "grant")
    print(f"{app.name}: delegation {'granted' if app.delegation else 'revoked'}")
