"""Team (admins only): the members recorded at their first login, and their roles."""

from __future__ import annotations

import streamlit as st

from engine.store import ROLES, Role
from studio import access, services

access.guard(access.ADMIN_PATH)  # before anything is drawn or read

WHO = "admin_member"
ROLE = "admin_role"
NOTICE = "admin_notice"


def _change() -> None:
    email = st.session_state.get(WHO)
    role = st.session_state.get(ROLE)
    if not isinstance(email, str) or role not in ROLES:
        return
    store = services.store()
    admins = [u.email for u in store.users() if u.role == "admin"]
    if admins == [email] and role != "admin":
        st.session_state[NOTICE] = "Keep at least one admin: make someone else admin first."
        return
    wanted: Role = "admin" if role == "admin" else "editor" if role == "editor" else "viewer"
    store.set_role(email, wanted)
    st.session_state[NOTICE] = f"{email} is now {wanted}."


def main() -> None:
    """Render the member list and the role form."""
    st.title("Team")
    st.caption(
        "Members appear here after their first login. Admins change roles; editors write "
        "blueprints and start runs; viewers read runs."
    )
    notice = st.session_state.pop(NOTICE, None)
    if notice:
        st.info(notice)
    members = services.store().users()
    st.dataframe(
        [
            {"E-mail": u.email, "Name": u.name, "Role": u.role, "Last login": u.last_login_at[:16]}
            for u in members
        ],
        hide_index=True,
        width="stretch",
    )
    if not members:
        return
    cols = st.columns([3, 2, 1], vertical_alignment="bottom")
    cols[0].selectbox("Member", [u.email for u in members], key=WHO)
    cols[1].selectbox("Role", list(ROLES), key=ROLE)
    cols[2].button("Change role", type="primary", on_click=_change)


main()
