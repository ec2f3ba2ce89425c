-- The log export tables join the row-level audit (audit_row_change, 0001): a customer's create,
-- delete and retry record what they changed; the export job's own writes (progress, finish,
-- expiry) happen outside an audited call and record nothing, as for every table.
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "log_exports" FOR EACH ROW EXECUTE FUNCTION audit_row_change();--> statement-breakpoint
CREATE TRIGGER audit_row_change AFTER INSERT OR UPDATE OR DELETE ON "log_export_days" FOR EACH ROW EXECUTE FUNCTION audit_row_change();
