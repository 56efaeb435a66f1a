"""The review page and its queue (issue #20): where the gate's uncertainty goes to the person.

- `queue`: holds `conflict`, `possible_duplicate` and unsure candidates in the store's review
  queue (D-155, D-156) and reads them back.
- `actions`: what the person decides (keep, retire, merge, discard, confirm, extend, forget),
  each written through the app, logged, and undoable.
- `site`: the pages, sessions, CSRF and security headers; `command`: `jamgate review`.
"""
