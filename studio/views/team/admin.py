"""Team (admins only): the members, their roles, and removing or disabling a member."""

from __future__ import annotations

import streamlit as st

from engine.login import FIX_NO_ADMIN
from engine.store import ROLES, Role, UserRow
from studio import access, services

access.guard(access.ADMIN_PATH)  # before anything is drawn or read

WHO = "admin_member"
ROLE = "admin_role"
NOTICE = "admin_notice"
ACTIONS = ("Change role", "Disable", "Enable", "Remove")


def _last_admin(members: list[UserRow], email: str) -> bool:
    """True when `email` is the only enabled admin."""
    admins = [u.email for u in members if u.role == "admin" and u.active]
    return admins == [email]


def _act(action: str) -> None:
    email = st.session_state.get(WHO)
    role = st.session_state.get(ROLE)
    if not isinstance(email, str):
        return
    store = services.store()
    members = store.users()
    keeps_admin = action == "Change role" and role == "admin"
    leaves = action in ("Change role", "Disable", "Remove") and not keeps_admin
    if leaves and _last_admin(members, email):
        st.session_state[NOTICE] = "Keep at least one admin: make someone else admin first."
        return
    if action == "Change role" and role in ROLES:
        wanted: Role = "admin" if role == "admin" else "editor" if role == "editor" else "viewer"
        store.set_role(email, wanted)
        st.session_state[NOTICE] = f"{email} is now {wanted}."
    elif action == "Disable":
        store.set_disabled(email, True)
        st.session_state[NOTICE] = (
            f"{email} is disabled: logged out at once, and may not log in until enabled."
        )
    elif action == "Enable":
        store.set_disabled(email, False)
        st.session_state[NOTICE] = f"{email} is enabled and may log in again."
    elif action == "Remove":
        store.remove_member(email)
        st.session_state[NOTICE] = (
            f"{email} is removed and logged out at once. An e-mail of an allowed domain may "
            "log in again as a viewer: disable a member to keep them out."
        )


def main() -> None:
    """Render the member list and the forms that change it."""
    st.title("Team")
    st.caption(
        "Members appear here after their first login (or when added with "
        "`blueprint members set EMAIL ROLE`). Admins change roles; editors write blueprints "
        "and start runs; viewers read runs. Removing or disabling a member logs them out at "
        "their next click."
    )
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.info(notice)
    members = services.store().users()
    if not any(u.role == "admin" and u.active for u in members):
        st.warning(f"This team has no admin. Give it one with `{FIX_NO_ADMIN}`.")
    st.dataframe(
        [
            {
                "E-mail": u.email,
                "Name": u.name,
                "Role": u.role,
                "Status": "disabled" if not u.active else "active",
                "Last login": u.last_login_at[:16] or "never",
            }
            for u in members
        ],
        hide_index=True,
        width="stretch",
    )
    if not members:
        return
    cols = st.columns([3, 2], vertical_alignment="bottom")
    cols[0].selectbox("Member", [u.email for u in members], key=WHO)
    cols[1].selectbox("Role", list(ROLES), key=ROLE)
    buttons = st.columns(len(ACTIONS))
    for column, action in zip(buttons, ACTIONS, strict=True):
        column.button(
            action,
            type="primary" if action == "Change role" else "secondary",
            on_click=_act,
            args=(action,),
            key=f"admin-{action.lower().replace(' ', '-')}",
        )


main()
