"""Who may do what with the boxes: counting, editing contents and handling the
guests' reports is the hosts' work (staff with the boxes' permissions)."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


def is_host(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.is_staff and user.has_perm("boxes.add_count"))


def host_required(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_host(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
