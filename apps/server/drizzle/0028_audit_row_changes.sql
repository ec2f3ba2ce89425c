CREATE TABLE "audit_row_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_row_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"tx_id" bigint NOT NULL,
	"table_name" text NOT NULL,
	"op" text NOT NULL,
	"row_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "tx_id" bigint;--> statement-breakpoint
CREATE INDEX "audit_row_changes_tx_idx" ON "audit_row_changes" USING btree ("tx_id");--> statement-breakpoint
-- Secret-named keys, at any depth of a jsonb value, become "[redacted]"; long strings are cut.
CREATE FUNCTION audit_redact(value jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb;
  k text;
  v jsonb;
BEGIN
  IF value IS NULL THEN
    RETURN NULL;
  ELSIF jsonb_typeof(value) = 'object' THEN
    result := '{}'::jsonb;
    FOR k, v IN SELECT * FROM jsonb_each(value) LOOP
      IF k ~* '(password|passwd|secret|token|private|totp|seed|_pem$|^key$|apikey|api_key|sealed)' THEN
        result := result || jsonb_build_object(k, CASE WHEN v = 'null'::jsonb THEN v ELSE '"[redacted]"'::jsonb END);
      ELSE
        result := result || jsonb_build_object(k, audit_redact(v));
      END IF;
    END LOOP;
    RETURN result;
  ELSIF jsonb_typeof(value) = 'array' THEN
    SELECT coalesce(jsonb_agg(audit_redact(e)), '[]'::jsonb) INTO result FROM jsonb_array_elements(value) e;
    RETURN result;
  ELSIF jsonb_typeof(value) = 'string' AND length(value #>> '{}') > 512 THEN
    RETURN to_jsonb(left(value #>> '{}', 512) || '…');
  END IF;
  RETURN value;
END $$;
--> statement-breakpoint
-- Records the changed columns of a row, before and after, while an audited call's transaction has
-- set rampart.audit = on (the binder does); other writers (agents, background jobs) pay one check.
CREATE FUNCTION audit_row_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_j jsonb;
  new_j jsonb;
  b jsonb := '{}'::jsonb;
  a jsonb := '{}'::jsonb;
  k text;
BEGIN
  IF coalesce(current_setting('rampart.audit', true), '') <> 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN old_j := audit_redact(to_jsonb(OLD)); END IF;
  IF TG_OP <> 'DELETE' THEN new_j := audit_redact(to_jsonb(NEW)); END IF;
  FOR k IN SELECT jsonb_object_keys(coalesce(new_j, old_j)) LOOP
    CONTINUE WHEN k = 'updated_at';
    CONTINUE WHEN TG_OP = 'UPDATE' AND (old_j -> k) IS NOT DISTINCT FROM (new_j -> k);
    IF old_j IS NOT NULL THEN b := b || jsonb_build_object(k, old_j -> k); END IF;
    IF new_j IS NOT NULL THEN a := a || jsonb_build_object(k, new_j -> k); END IF;
  END LOOP;
  IF TG_OP = 'UPDATE' AND a = '{}'::jsonb THEN
    RETURN NULL;
  END IF;
  INSERT INTO audit_row_changes (tx_id, table_name, op, row_id, before, after)
  VALUES (
    txid_current(),
    TG_TABLE_NAME,
    lower(TG_OP),
    coalesce(new_j ->> 'id', old_j ->> 'id', ''),
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE b END,
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE a END
  );
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every table of the schema but the sign-in machinery, the audit log itself, the monitors' own
-- probe bookkeeping and image bytes (a test keeps later tables covered: AUDIT_ROW_EXCLUDED_TABLES).
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT tablename FROM pg_tables
    WHERE schemaname = 'public'
      AND tablename NOT IN ('auth_sessions', 'refresh_tokens', 'auth_tickets', 'password_tokens',
        'audit_logs', 'audit_row_changes', 'monitor_probe_states', 'monitor_events',
        'node_upgrade_logs', 'operator_logo_images')
  LOOP
    EXECUTE format(
      'CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION audit_row_change()',
      t
    );
  END LOOP;
END $$;
