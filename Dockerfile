# Jamgate in remote mode: MCP at /mcp, REST at /v1/memory, OAuth for claude.ai, /healthz.
#
#   docker build -t jamgate .                       # lexical recall
#   docker build -t jamgate --build-arg EXTRAS=semantic .   # + the local embedding model
#   docker run -d -p 127.0.0.1:8420:8420 -v jamgate-data:/data \
#       -e JAMGATE_TOKEN="$(python -c 'import secrets; print(secrets.token_urlsafe(32))')" \
#       -e JAMGATE_ALLOWED_HOSTS=memory.example.com jamgate
#
# Put a TLS reverse proxy (or the platform's) in front: see docs/deploy.md.
# The memory lives in /data: mount a volume there. There is deliberately no VOLUME line
# (Railway refuses images that declare one); without a mount, /data dies with the container.

FROM python:3.11-slim AS build
ARG EXTRAS=""
WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY jamgate_core ./jamgate_core
COPY plugins ./plugins
COPY adapters ./adapters
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".${EXTRAS:+[$EXTRAS]}"

FROM python:3.11-slim
RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin jamgate \
    && mkdir -p /data && chown jamgate:jamgate /data && chmod 0700 /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index /wheels/*.whl && rm -rf /wheels

# JAMGATE_PORT is deliberately unset: a platform's $PORT then wins (else 8420).
ENV JAMGATE_HOME=/data \
    JAMGATE_HOST=0.0.0.0 \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /data
USER jamgate
EXPOSE 8420
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; port = os.environ.get('PORT') or os.environ.get('JAMGATE_PORT') or '8420'; urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=4)"]
CMD ["jamgate", "serve", "--http"]
