"""The Team page (team mode, admins only): members, roles, removing or disabling one (`admin`).

Who may open which page is decided by `studio.access`, which every page uses.
"""
