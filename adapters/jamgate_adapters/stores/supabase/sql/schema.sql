-- Jamgate schema v2 for Supabase (or any Postgres 15+ with pgvector behind PostgREST).
-- Apply once per project:  jamgate supabase init --print | psql "$DATABASE_URL"
-- Roles: `service_role` (Jamgate's key) reads and writes; `anon` and `authenticated` get nothing.
-- Every statement is idempotent, so running the file again is harmless.
--
-- v2: `terms` hold the words of Jamgate's one folding of text (jamgate_core.text, the one the
-- gate's stages use). A fresh database starts at v2. A v1 database keeps its version when
-- this file is applied again; the next Jamgate to open it re-folds every row's terms through
-- jamgate_set_terms and then records v2 (jamgate_set_schema_version). Only the derived
-- `terms` (and so `fts`) change.

create extension if not exists vector;

create table if not exists jamgate_meta (
    key text primary key,
    value text not null
);
insert into jamgate_meta (key, value) values ('schema_version', '2') on conflict do nothing;

create table if not exists jamgate_memories (
    seq bigserial primary key,
    id text not null unique,
    scope text not null,
    text text not null,
    text_key text not null,
    type text,
    subject text,
    source text not null,
    status text not null check (status in ('active', 'superseded')),
    created_at timestamptz not null,
    updated_at timestamptz not null,
    expires_at timestamptz,
    superseded_by text,
    superseded_at timestamptz,
    client_name text,
    client_version text,
    provenance text,
    embedding_model text,
    embedding vector,
    -- folded words, CJK bigrams and characters, computed by Jamgate (see docs/supabase.md)
    terms text not null default '',
    fts tsvector generated always as (to_tsvector('simple', terms)) stored
);
-- The invariants as database facts: one active record per (scope, text key) and per subject.
create unique index if not exists jamgate_active_key
    on jamgate_memories (scope, text_key) where status = 'active';
create unique index if not exists jamgate_active_subject
    on jamgate_memories (scope, subject) where status = 'active' and subject is not null;
create index if not exists jamgate_newest on jamgate_memories (scope, created_at desc, id desc);
create index if not exists jamgate_fts on jamgate_memories using gin (fts);

create table if not exists jamgate_oauth_clients (
    client_id text primary key,
    document text not null,
    created_at double precision not null,
    authorized boolean not null default false
);
create table if not exists jamgate_oauth_secrets (
    kind text not null check (kind in ('code', 'access', 'refresh')),
    key text not null,
    client_id text not null,
    grant_id text not null,
    expires_at double precision not null,
    data text not null,
    revoked_at double precision,
    primary key (kind, key)
);
create index if not exists jamgate_oauth_grant on jamgate_oauth_secrets (grant_id);
create index if not exists jamgate_oauth_expiry on jamgate_oauth_secrets (expires_at);

-- The review queue (D-155): candidates held for the person, apart from the memories.
create table if not exists jamgate_pending (
    id text primary key,
    scope text not null,
    created_at double precision not null,
    expires_at double precision not null,
    data text not null
);
create index if not exists jamgate_pending_expiry on jamgate_pending (expires_at);

-- Row-level security: on, with no policy, so only roles that bypass it (service_role) see rows.
alter table jamgate_meta enable row level security;
alter table jamgate_memories enable row level security;
alter table jamgate_oauth_clients enable row level security;
alter table jamgate_oauth_secrets enable row level security;
alter table jamgate_pending enable row level security;
revoke all on jamgate_meta, jamgate_memories, jamgate_oauth_clients, jamgate_oauth_secrets,
    jamgate_pending from anon, authenticated;
grant all on jamgate_meta, jamgate_memories, jamgate_oauth_clients, jamgate_oauth_secrets,
    jamgate_pending to service_role;
grant usage, select on sequence jamgate_memories_seq_seq to service_role;

create or replace function jamgate_schema_version() returns int
language sql stable as $$ select value::int from jamgate_meta where key = 'schema_version' $$;

-- Migrations that need Jamgate's code (it folds the terms): new terms by row, then the version
-- (moved only from the one the migration started at; the version after the call is returned).
create or replace function jamgate_set_terms(p_rows jsonb) returns int
language sql as $$
    with done as (update jamgate_memories m set terms = r->>'terms'
                  from jsonb_array_elements(p_rows) r
                  where m.seq = (r->>'seq')::bigint returning 1)
    select count(*)::int from done
$$;

create or replace function jamgate_set_schema_version(p_from int, p_to int) returns int
language sql as $$
    update jamgate_meta set value = p_to::text
    where key = 'schema_version' and value::int = p_from;
    select value::int from jamgate_meta where key = 'schema_version';
$$;

-- The ids of the active records with one text key or subject, sorted.
create or replace function jamgate_active_ids(p_scope text, p_column text, p_value text)
returns text[] language sql stable as $$
    select coalesce(array_agg(id order by id), '{}') from jamgate_memories
    where scope = p_scope and status = 'active'
      and (case when p_column = 'text_key' then text_key else subject end) = p_value
$$;

-- The active records (expired ones included) with one text key or subject.
create or replace function jamgate_active(p_scope text, p_column text, p_value text)
returns setof jamgate_memories language sql stable as $$
    select * from jamgate_memories
    where scope = p_scope and status = 'active'
      and (case when p_column = 'text_key' then text_key else subject end) = p_value
$$;

-- Decide-and-write: check every precondition, then apply every plan, in one transaction.
-- Writers of one scope take its advisory lock, so the checks are exact; the unique indexes
-- hold regardless. A failed check or a unique violation raises SQLSTATE JG409 (a retry).
create or replace function jamgate_write(p_plans jsonb, p_preconditions jsonb)
returns void language plpgsql as $$
declare
    s text;
    pre jsonb;
    plan jsonb;
    item record;
    wanted text[];
    rid text;
    rec jsonb;
    changed int;
    what text;
begin
    for s in select distinct x from (
        select p->>'scope' as x from jsonb_array_elements(p_plans) p
        union select p->>'scope' from jsonb_array_elements(p_preconditions) p) scopes
        order by x
    loop
        perform pg_advisory_xact_lock(hashtextextended('jamgate:' || s, 0));
    end loop;
    for pre in select * from jsonb_array_elements(p_preconditions) loop
        for what in select unnest(array['text_key', 'subject']) loop
            for item in select * from jsonb_each(pre->(case when what = 'text_key'
                                                   then 'by_key' else 'by_subject' end)) loop
                select coalesce(array_agg(v order by v), '{}') into wanted
                    from jsonb_array_elements_text(item.value) v;
                if jamgate_active_ids(pre->>'scope', what, item.key) <> wanted then
                    raise exception 'the active records with % % changed since they were read',
                        replace(what, '_', ' '), item.key using errcode = 'JG409';
                end if;
            end loop;
        end loop;
    end loop;
    for plan in select * from jsonb_array_elements(p_plans) loop
        for rid in select jsonb_array_elements_text(plan->'retire') loop
            update jamgate_memories set status = 'superseded',
                superseded_by = plan->'insert'->>'id',
                superseded_at = (plan->>'now')::timestamptz,
                updated_at = (plan->>'now')::timestamptz
            where scope = plan->>'scope' and id = rid and status = 'active';
            get diagnostics changed = row_count;
            if changed <> 1 then
                raise exception 'record % is no longer active in scope %', rid, plan->>'scope'
                    using errcode = 'JG409';
            end if;
        end loop;
        if jsonb_typeof(plan->'upgrade') = 'array' then
            update jamgate_memories set source = plan->'upgrade'->>1,
                updated_at = (plan->>'now')::timestamptz
            where scope = plan->>'scope' and id = plan->'upgrade'->>0;
            get diagnostics changed = row_count;
            if changed <> 1 then
                raise exception 'record % is gone from scope %', plan->'upgrade'->>0,
                    plan->>'scope' using errcode = 'JG409';
            end if;
        end if;
        rec := plan->'insert';
        if jsonb_typeof(rec) = 'object' then
            begin
                insert into jamgate_memories (id, scope, text, text_key, type, subject, source,
                    status, created_at, updated_at, expires_at, superseded_by, superseded_at,
                    client_name, client_version, provenance, embedding_model, embedding, terms)
                values (rec->>'id', rec->>'scope', rec->>'text', rec->>'text_key',
                    rec->>'type', rec->>'subject', rec->>'source', rec->>'status',
                    (rec->>'created_at')::timestamptz, (rec->>'updated_at')::timestamptz,
                    (rec->>'expires_at')::timestamptz, rec->>'superseded_by',
                    (rec->>'superseded_at')::timestamptz, rec->>'client_name',
                    rec->>'client_version', rec->>'provenance', rec->>'embedding_model',
                    (rec->>'embedding')::vector, coalesce(rec->>'terms', ''));
            exception when unique_violation then
                get stacked diagnostics what = constraint_name;
                if what = 'jamgate_memories_id_key' then
                    raise exception 'a memory with id % already exists', rec->>'id'
                        using errcode = 'JG500';
                end if;
                raise exception 'the write would leave two active records with one text key '
                    'or subject (%)', what using errcode = 'JG409';
            end;
        end if;
    end loop;
end $$;

-- Live records matching a full-text query, best first (Jamgate re-ranks them with BM25).
create or replace function jamgate_keyword(p_scope text, p_query text, p_type text,
    p_now timestamptz, p_limit int)
returns setof jamgate_memories language sql stable as $$
    select * from jamgate_memories
    where scope = p_scope and status = 'active' and (expires_at is null or expires_at > p_now)
      and (p_type is null or type = p_type) and fts @@ to_tsquery('simple', p_query)
    order by ts_rank(fts, to_tsquery('simple', p_query)) desc, created_at desc, id desc
    limit p_limit
$$;

-- Live records with a vector of the query's length, by cosine similarity (pgvector), best first.
create or replace function jamgate_nearest(p_scope text, p_vector text, p_now timestamptz,
    p_limit int)
returns table (id text, similarity double precision) language sql stable as $$
    select m.id, 1 - (m.embedding <=> p_vector::vector) from jamgate_memories m
    where m.scope = p_scope and m.status = 'active'
      and (m.expires_at is null or m.expires_at > p_now) and m.embedding is not null
      and vector_dims(m.embedding) = vector_dims(p_vector::vector)
    order by m.embedding <=> p_vector::vector, m.created_at desc, m.id desc
    limit p_limit
$$;

-- Mean and standard deviation of the cosine over the scope's live vectors of that length.
create or replace function jamgate_cosine_stats(p_scope text, p_vector text, p_now timestamptz)
returns table (mean double precision, spread double precision) language sql stable as $$
    select coalesce(avg(c), 0), coalesce(stddev_pop(c), 0) from (
        select 1 - (embedding <=> p_vector::vector) as c from jamgate_memories
        where scope = p_scope and status = 'active'
          and (expires_at is null or expires_at > p_now) and embedding is not null
          and vector_dims(embedding) = vector_dims(p_vector::vector)) live
$$;

create or replace function jamgate_resolve(p_scope text, p_needle text)
returns setof text language sql stable as $$
    select id from jamgate_memories where scope = p_scope and id = p_needle
    union all
    select id from jamgate_memories where scope = p_scope and length(p_needle) >= 8
      and left(id, length(p_needle)) = p_needle and id <> p_needle
      and not exists (select 1 from jamgate_memories where scope = p_scope and id = p_needle)
$$;

create or replace function jamgate_list(p_scope text, p_status text, p_type text,
    p_now timestamptz, p_at timestamptz, p_id text, p_limit int)
returns setof jamgate_memories language sql stable as $$
    select * from jamgate_memories
    where scope = p_scope and (p_type is null or type = p_type)
      and case p_status
          when 'active' then status = 'active' and (expires_at is null or expires_at > p_now)
          when 'superseded' then status = 'superseded'
          when 'expired' then status = 'active' and expires_at is not null
                              and expires_at <= p_now
          else true end
      and (p_at is null or created_at < p_at or (created_at = p_at and id < p_id))
    order by created_at desc, id desc limit p_limit
$$;

create or replace function jamgate_missing_vectors(p_model text, p_limit int)
returns setof jamgate_memories language sql stable as $$
    select * from jamgate_memories where status = 'active'
      and (embedding is null or embedding_model is distinct from p_model)
    order by seq limit p_limit
$$;

create or replace function jamgate_set_vectors(p_updates jsonb) returns int
language plpgsql as $$
declare u jsonb; n int; done int := 0;
begin
    for u in select * from jsonb_array_elements(p_updates) loop
        update jamgate_memories set embedding = (u->>'vector')::vector,
            embedding_model = u->>'model'
        where scope = u->>'scope' and id = u->>'id';
        get diagnostics n = row_count;
        done := done + n;
    end loop;
    return done;
end $$;

create or replace function jamgate_compact(p_cutoff timestamptz) returns int
language sql as $$
    with gone as (delete from jamgate_memories where status = 'active'
                  and expires_at is not null and expires_at <= p_cutoff returning 1)
    select count(*)::int from gone
$$;

create or replace function jamgate_integrity() returns setof text
language sql stable as $$
    select 'missing index ' || name || ': the uniqueness invariant is not enforced'
    from unnest(array['jamgate_active_key', 'jamgate_active_subject']) name
    where to_regclass(name) is null
    union all
    select format('scope %L: %s active records share text key %L', scope, count(*), text_key)
    from jamgate_memories where status = 'active' group by scope, text_key having count(*) > 1
    union all
    select format('scope %L: %s active records share subject %L', scope, count(*), subject)
    from jamgate_memories where status = 'active' and subject is not null
    group by scope, subject having count(*) > 1
$$;

-- OAuth state for remote mode (hashes only), shared by every instance on this database.
create or replace function jamgate_oauth_put(p_secret jsonb) returns void
language sql as $$
    insert into jamgate_oauth_secrets (kind, key, client_id, grant_id, expires_at, data,
        revoked_at)
    values (p_secret->>'kind', p_secret->>'key', p_secret->>'client_id',
        p_secret->>'grant_id', (p_secret->>'expires_at')::double precision,
        p_secret->>'data', (p_secret->>'revoked_at')::double precision);
    update jamgate_oauth_clients set authorized = true
    where p_secret->>'kind' = 'code' and client_id = p_secret->>'client_id';
$$;

create or replace function jamgate_oauth_take(p_kind text, p_key text, p_now double precision)
returns setof jamgate_oauth_secrets language plpgsql as $$
declare hit jamgate_oauth_secrets;
begin
    select * into hit from jamgate_oauth_secrets where kind = p_kind and key = p_key
        for update;
    if hit.key is not null then
        if hit.revoked_at is null then
            update jamgate_oauth_secrets set revoked_at = p_now
            where kind = p_kind and key = p_key;
        end if;
        return next hit;
    end if;
end $$;

create or replace function jamgate_oauth_revoke_grant(p_grant text, p_now double precision)
returns int language sql as $$
    with done as (update jamgate_oauth_secrets set revoked_at = p_now
                  where grant_id = p_grant and revoked_at is null returning 1)
    select count(*)::int from done
$$;

create or replace function jamgate_oauth_prune(p_now double precision, p_unused double precision)
returns int language sql as $$
    with a as (delete from jamgate_oauth_secrets where expires_at < p_now returning 1),
         b as (delete from jamgate_oauth_clients where not authorized
               and created_at < p_now - p_unused returning 1)
    select ((select count(*) from a) + (select count(*) from b))::int
$$;

do $$
declare f text;
begin
    for f in select p.oid::regprocedure::text from pg_proc p
             where p.proname like 'jamgate\_%' and p.pronamespace = 'public'::regnamespace loop
        execute format('revoke all on function %s from public, anon, authenticated', f);
        execute format('grant execute on function %s to service_role', f);
    end loop;
end $$;

notify pgrst, 'reload schema';
