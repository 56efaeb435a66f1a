"""The Graphiti side of the store: async reads and writes of records as fact edges.

Writes go through Graphiti's own models (`EntityNode`, `EntityEdge`, `EpisodicNode`,
`EpisodicEdge` `.save`), never `add_episode`/`add_triplet` (both call an LLM). Search is
Graphiti's hybrid search (`graphiti_core.search.search`: BM25 + cosine, RRF). The exact lookups
the gate needs (by text key, by subject, by id, pages) are plain Cypher on the same edges.

On FalkorDB each group is its own graph, so every group gets its own driver (created once, with
Graphiti's indices plus Jamgate's); on Neo4j one database holds every group.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from graphiti_core.driver.driver import GraphDriver
from graphiti_core.edges import EntityEdge, EpisodicEdge
from graphiti_core.nodes import EntityNode, EpisodeType, EpisodicNode
from graphiti_core.search.search import search as graphiti_search
from graphiti_core.search.search_config import (
    EdgeReranker,
    EdgeSearchConfig,
    EdgeSearchMethod,
    SearchConfig,
)
from graphiti_core.search.search_filters import ComparisonOperator, DateFilter, SearchFilters

from jamgate_adapters.stores.graphiti.records import (
    NO_SUBJECT,
    edge_name,
    episode_id,
    index_text,
    key_digest,
    properties,
    record_of,
    stamp,
    subject_node_id,
    validity,
)
from jamgate_adapters.stores.graphiti.runtime import make_clients
from jamgate_core.contracts import Embedder
from jamgate_core.errors import ConfigError
from jamgate_core.models import MemoryRecord

Backend = Literal["falkordb", "neo4j"]
EDGE = "MATCH ()-[e:RELATES_TO]->() WHERE e.group_id = $gid AND e.jamgate_record IS NOT NULL"
RECORDS = " RETURN properties(e) AS p"
NEWEST = " ORDER BY e.jamgate_sort DESC, e.uuid DESC"
LIVE = (" AND e.jamgate_status = 'active'"
        " AND (e.jamgate_expires IS NULL OR e.jamgate_expires > $now)")
STATUS = {
    "active": LIVE,
    "expired": " AND e.jamgate_status = 'active' AND e.jamgate_expires <= $now",
    "superseded": " AND e.jamgate_status = 'superseded'",
    "all": "",
}
JAMGATE_INDICES = {
    "falkordb": [
        # Equality lookups only: FalkorDB's range index answers `e.x < $s` on strings wrongly
        # (every row), so the sort and expiry stamps stay unindexed.
        "CREATE INDEX FOR ()-[e:RELATES_TO]-() ON (e.jamgate_key, e.jamgate_subject)",
        "CREATE FULLTEXT INDEX FOR ()-[e:RELATES_TO]-() ON (e.jamgate_terms)",
    ],
    "neo4j": [
        "CREATE INDEX jamgate_edge_lookup IF NOT EXISTS FOR ()-[e:RELATES_TO]-() "
        "ON (e.jamgate_key, e.jamgate_subject)",
    ],
}
# Cosine similarity in [-1, 1] from each backend's vector function.
COSINE = {
    "falkordb": "1.0 - vec.cosineDistance(e.fact_embedding, vecf32($vector))",
    "neo4j": "2.0 * vector.similarity.cosine(e.fact_embedding, $vector) - 1.0",
}


@dataclass(frozen=True)
class Connection:
    backend: Backend
    host: str
    port: int
    unix_socket: str | None
    username: str | None
    password_env: str | None
    neo4j_uri: str | None

    def password(self) -> str | None:
        return os.environ.get(self.password_env) if self.password_env else None


def similarity_floor(backend: Backend, cosine_min: float) -> float:
    """Graphiti's `sim_min_score` for a raw cosine floor: both FalkorDB and Neo4j score
    cosine as (1 + cos) / 2 in [0, 1] (Kuzu, not offered, uses raw cosine)."""
    return (1.0 + cosine_min) / 2.0


class Graph:
    """One connection to the graph database and a driver per group."""

    def __init__(self, connection: Connection, embedder: Embedder | None, cosine_min: float,
                 ) -> None:
        self.connection = connection
        self.backend: Backend = connection.backend
        self.embedder = embedder
        self.sim_floor = similarity_floor(self.backend, cosine_min)
        self._root: GraphDriver | None = None
        self._client: Any = None
        self._drivers: dict[str, GraphDriver] = {}

    # --- connection --------------------------------------------------------------------------

    async def connect(self) -> None:
        c = self.connection
        if self.backend == "falkordb":
            from falkordb.asyncio import FalkorDB
            from graphiti_core.driver.falkordb_driver import FalkorDriver

            if c.unix_socket:
                self._client = FalkorDB(unix_socket_path=c.unix_socket, username=c.username,
                                        password=c.password())
            else:
                self._client = FalkorDB(host=c.host, port=c.port, username=c.username,
                                        password=c.password())
            await self._client.connection.ping()
            self._root = FalkorDriver(falkor_db=self._client)
        else:
            from graphiti_core.driver.neo4j_driver import Neo4jDriver

            if not c.neo4j_uri:
                raise ConfigError("the graphiti store's neo4j backend needs neo4j_uri")
            self._root = Neo4jDriver(c.neo4j_uri, c.username, c.password())
            await self._root.build_indices_and_constraints()
            for query in JAMGATE_INDICES["neo4j"]:
                await self._root.execute_query(query)

    async def close(self) -> None:
        if self._root is not None:
            await self._root.close()
        self._root, self._client, self._drivers = None, None, {}

    @property
    def redis(self) -> Any:
        """The Redis connection under FalkorDB (None on Neo4j)."""
        return self._client.connection if self._client is not None else None

    def _root_driver(self) -> GraphDriver:
        if self._root is None:
            raise RuntimeError("the graphiti store is not open")
        return self._root

    async def exists(self, gid: str) -> bool:
        """Whether a group has any data (FalkorDB: whether its graph exists)."""
        if self.backend != "falkordb" or gid in self._drivers:
            return True
        return bool(await self.redis.exists(gid))

    async def driver(self, gid: str) -> GraphDriver:
        """The driver for a group, its indices built the first time it is used."""
        root = self._root_driver()
        if self.backend != "falkordb":
            return root
        found = self._drivers.get(gid)
        if found is None:
            from graphiti_core.driver.falkordb_driver import FalkorDriver

            found = FalkorDriver(falkor_db=self._client, database=gid)
            await found.build_indices_and_constraints()
            for query in JAMGATE_INDICES["falkordb"]:
                await found.execute_query(query)
            self._drivers[gid] = found
        return found

    async def groups(self) -> list[str]:
        """Every group with data (FalkorDB: every graph name)."""
        if self.backend == "falkordb":
            return [g.decode() if isinstance(g, bytes) else str(g)
                    for g in await self._client.list_graphs()]
        rows = await self._query(self._root_driver(),
                                 "MATCH ()-[e:RELATES_TO]->() WHERE e.jamgate_record IS NOT NULL "
                                 "RETURN DISTINCT e.group_id AS gid")
        return [row["gid"] for row in rows]

    @staticmethod
    async def _query(driver: GraphDriver, cypher: str, **params: Any) -> list[dict[str, Any]]:
        result = await driver.execute_query(cypher, **params)
        return list(result[0]) if result else []

    async def records(self, gid: str, where: str = "", order: str = NEWEST, **params: Any,
                      ) -> list[MemoryRecord]:
        if not await self.exists(gid):
            return []
        rows = await self._query(await self.driver(gid), EDGE + where + RECORDS + order,
                                 gid=gid, **params)
        return [record_of(dict(row["p"])) for row in rows]

    # --- reads ---------------------------------------------------------------------------------

    async def get(self, gid: str, record_id: str) -> MemoryRecord | None:
        found = await self.records(gid, " AND e.uuid = $id", id=record_id)
        return found[0] if found else None

    async def by_key(self, gid: str, key: str) -> list[MemoryRecord]:
        return await self.records(
            gid, " AND e.jamgate_key = $key AND e.jamgate_status = 'active'",
            key=key_digest(key))

    async def by_subject(self, gid: str, subject: str) -> list[MemoryRecord]:
        return await self.records(
            gid, " AND e.jamgate_subject = $subject AND e.jamgate_status = 'active'",
            subject=subject)

    async def resolve(self, gid: str, needle: str) -> list[str]:
        if not await self.exists(gid):
            return []
        driver = await self.driver(gid)
        exact = await self._query(driver, EDGE + " AND e.uuid = $id RETURN e.uuid AS id",
                                  gid=gid, id=needle)
        if exact:
            return [needle]
        if len(needle) < 8:
            return []
        rows = await self._query(driver, EDGE + " AND e.uuid STARTS WITH $needle "
                                 "RETURN e.uuid AS id", gid=gid, needle=needle)
        return sorted(row["id"] for row in rows)

    async def page(self, gid: str, status: str, type: str | None, limit: int,
                   after: tuple[str, str] | None, now: datetime) -> list[MemoryRecord]:
        where = STATUS[status]
        params: dict[str, Any] = {"now": stamp(now), "limit": limit}
        if type is not None:
            where += " AND e.jamgate_type = $type"
            params["type"] = type
        if after is not None:
            where += (" AND (e.jamgate_sort < $after_sort OR "
                      "(e.jamgate_sort = $after_sort AND e.uuid < $after_id))")
            params["after_sort"], params["after_id"] = after
        return await self.records(gid, where, NEWEST + " LIMIT $limit", **params)

    async def expired_by(self, gid: str, cutoff: datetime) -> list[str]:
        rows = await self.records(gid, " AND e.jamgate_status = 'active' AND "
                                  "e.jamgate_expires <= $cutoff", cutoff=stamp(cutoff))
        return [r.id for r in rows]

    async def without_vector(self, gid: str, model_id: str, limit: int) -> list[MemoryRecord]:
        """Active records of a group lacking a vector from `model_id`, oldest first."""
        return await self.records(
            gid, " AND e.jamgate_status = 'active' AND (e.fact_embedding IS NULL OR "
            "e.jamgate_embedding_model IS NULL OR e.jamgate_embedding_model <> $model)",
            " ORDER BY e.jamgate_sort, e.uuid LIMIT $limit", model=model_id, limit=limit)

    async def nearest(self, gid: str, vector: list[float], limit: int, now: datetime,
                      ) -> list[tuple[MemoryRecord, float]]:
        if not await self.exists(gid):
            return []
        cypher = (EDGE + LIVE + " AND e.jamgate_dim = $dim WITH e, " + COSINE[self.backend]
                  + " AS score RETURN properties(e) AS p, score"
                  " ORDER BY score DESC, e.jamgate_sort DESC, e.uuid DESC LIMIT $limit")
        rows = await self._query(await self.driver(gid), cypher, gid=gid, vector=vector,
                                 dim=len(vector), now=stamp(now), limit=limit)
        return [(record_of(dict(row["p"])), float(row["score"])) for row in rows]

    async def hybrid_search(self, gid: str, text: str, vector: list[float] | None,
                            limit: int, type: str | None, now: datetime,
                            ) -> list[tuple[str, float]]:
        """Graphiti's hybrid search over the live edges of a group: (record id, RRF score
        scaled to (0, 1]) best first. BM25 always; cosine when a vector is given."""
        if not await self.exists(gid):
            return []
        methods = [EdgeSearchMethod.bm25] if text.strip() else []
        if vector:
            methods.append(EdgeSearchMethod.cosine_similarity)
        if not methods:
            return []
        config = SearchConfig(
            edge_config=EdgeSearchConfig(search_methods=methods, reranker=EdgeReranker.rrf,
                                         sim_min_score=self.sim_floor),
            limit=limit,
        )
        is_null, after = ComparisonOperator.is_null, ComparisonOperator.greater_than
        live = SearchFilters(  # not superseded, not past its expiry: Graphiti's own fields
            edge_types=[edge_name(type)] if type is not None else None,
            expired_at=[[DateFilter(comparison_operator=is_null)]],
            invalid_at=[[DateFilter(comparison_operator=is_null)],
                        [DateFilter(date=now, comparison_operator=after)]],
        )
        driver = await self.driver(gid)
        results = await graphiti_search(
            make_clients(driver, self.embedder), text or "*", [gid], config, live,
            query_vector=vector or None, driver=driver,
        )
        best = float(len(methods))  # RRF with rank constant 1: first in every list
        return [(edge.uuid, min(score / best, 1.0))
                for edge, score in zip(results.edges, results.edge_reranker_scores, strict=False)
                if score > 0]

    # --- writes --------------------------------------------------------------------------------

    async def save(self, gid: str, record: MemoryRecord, *, new: bool) -> None:
        """Store a record as its fact edge; a new one also gets its subject node (if missing),
        a provenance episode and the episode's MENTIONS edge."""
        driver = await self.driver(gid)
        node_id = subject_node_id(gid, record.subject)
        if new:
            await self._ensure_node(driver, gid, node_id, record)
            episode = EpisodicNode(
                uuid=episode_id(record.id), name=record.id, group_id=gid,
                source=EpisodeType.text, content=record.text,
                source_description=_provenance(record), created_at=record.created_at,
                valid_at=record.created_at, entity_edges=[record.id],
            )
            await episode.save(driver)
            await EpisodicEdge(uuid=f"{record.id}.mentions", group_id=gid,
                               source_node_uuid=episode.uuid, target_node_uuid=node_id,
                               created_at=record.created_at).save(driver)
        invalid_at, expired_at = validity(record)
        edge = EntityEdge(
            uuid=record.id, group_id=gid, source_node_uuid=node_id, target_node_uuid=node_id,
            name=edge_name(record.type), fact=record.text,
            fact_embedding=record.embedding or None, episodes=[episode_id(record.id)],
            created_at=record.created_at, valid_at=record.created_at, invalid_at=invalid_at,
            expired_at=expired_at, reference_time=record.created_at,
            attributes=properties(record),
        )
        await edge.save(driver)

    async def reindex_terms(self, gid: str, batch: int = 500) -> int:
        """Rewrite every record edge's `jamgate_terms` from its record (`index_text` changed);
        how many edges. Idempotent: the terms are derived from the stored record alone."""
        if not await self.exists(gid):
            return 0
        driver = await self.driver(gid)
        rows = await self._query(driver, EDGE + " RETURN e.uuid AS id, e.jamgate_record AS r",
                                 gid=gid)
        terms = [{"id": row["id"], "terms": index_text(MemoryRecord.model_validate_json(row["r"]))}
                 for row in rows]
        for start in range(0, len(terms), batch):
            await driver.execute_query(
                "UNWIND $rows AS row MATCH ()-[e:RELATES_TO]->() WHERE e.group_id = $gid "
                "AND e.uuid = row.id SET e.jamgate_terms = row.terms",
                gid=gid, rows=terms[start:start + batch])
        return len(terms)

    async def _ensure_node(self, driver: GraphDriver, gid: str, node_id: str,
                           record: MemoryRecord) -> None:
        found = await self._query(driver, "MATCH (n:Entity {uuid: $uuid}) RETURN n.uuid AS id",
                                  uuid=node_id)
        if found:
            return
        node = EntityNode(uuid=node_id, name=record.subject or NO_SUBJECT, group_id=gid,
                          labels=["Entity"], created_at=record.created_at,
                          summary=f"Jamgate subject {record.subject!r}" if record.subject
                          else "Jamgate memories without a subject")
        if self.embedder is not None:
            await node.generate_name_embedding(make_clients(driver, self.embedder).embedder)
        await node.save(driver)

    async def delete(self, gid: str, record: MemoryRecord) -> None:
        """Remove a record's edge, its episode, and its subject node once nothing uses it."""
        driver = await self.driver(gid)
        await driver.execute_query(EDGE + " AND e.uuid = $id DELETE e", gid=gid, id=record.id)
        await driver.execute_query("MATCH (ep:Episodic {uuid: $uuid}) DETACH DELETE ep",
                                   uuid=episode_id(record.id))
        await driver.execute_query(
            "MATCH (n:Entity {uuid: $uuid}) WHERE NOT (n)-[:RELATES_TO]-() "
            "AND NOT ()-[:MENTIONS]->(n) DETACH DELETE n",
            uuid=subject_node_id(gid, record.subject))


def _provenance(record: MemoryRecord) -> str:
    by = f" via {record.client.name}" if record.client else ""
    return f"jamgate {record.source}{by}" + (f" ({record.provenance})" if record.provenance
                                              else "")
