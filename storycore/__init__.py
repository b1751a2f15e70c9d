"""storycore: an embeddable story-publishing engine.

The core is framework-free: storage is reached through the ports of ``storycore.ports``
(adapters in ``storycore.adapters``), and web bindings live in ``storycore.contrib``.
"""

from .errors import (
    ConfigurationError,
    Conflict,
    Forbidden,
    InternalError,
    InvalidParameter,
    InvalidSlug,
    MethodNotAllowed,
    MissingDependencyError,
    NotFound,
    PayloadTooLarge,
    ProviderUnavailable,
    RateLimited,
    SlugTaken,
    StorycoreError,
    StoryMoved,
    Unauthorized,
    Unavailable,
    VersionConflict,
)
from .model.visibility import ANONYMOUS, Viewer
from .service import Service
from .settings import Limits, Network, Settings

__all__ = [
    "ANONYMOUS",
    "ConfigurationError",
    "Conflict",
    "Forbidden",
    "InternalError",
    "InvalidParameter",
    "InvalidSlug",
    "Limits",
    "MethodNotAllowed",
    "MissingDependencyError",
    "Network",
    "NotFound",
    "PayloadTooLarge",
    "ProviderUnavailable",
    "RateLimited",
    "Service",
    "Settings",
    "SlugTaken",
    "StoryMoved",
    "StorycoreError",
    "Unauthorized",
    "Unavailable",
    "VersionConflict",
    "Viewer",
]

__version__ = "0.1.0"
