CREATE TABLE "monitor_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitor_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"group_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"state" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_group_monitors" (
	"group_id" bigint NOT NULL,
	"monitor_id" bigint NOT NULL,
	CONSTRAINT "monitor_group_monitors_group_id_monitor_id_pk" PRIMARY KEY("group_id","monitor_id")
);
--> statement-breakpoint
CREATE TABLE "monitor_groups" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitor_groups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"name" text NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"interval_seconds" integer NOT NULL,
	"timeout_seconds" integer NOT NULL,
	"failure_threshold" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_nodes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "monitor_nodes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"owner_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_probe_states" (
	"group_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"monitor_id" bigint NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "monitor_probe_states_group_id_node_id_monitor_id_pk" PRIMARY KEY("group_id","node_id","monitor_id")
);
--> statement-breakpoint
CREATE TABLE "monitor_targets" (
	"group_id" bigint NOT NULL,
	"node_id" bigint NOT NULL,
	"state" text DEFAULT 'unknown' NOT NULL,
	"since" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"reason" text DEFAULT '' NOT NULL,
	CONSTRAINT "monitor_targets_group_id_node_id_pk" PRIMARY KEY("group_id","node_id"),
	CONSTRAINT "monitor_targets_state_check" CHECK ("monitor_targets"."state" IN ('up', 'down', 'unknown'))
);
--> statement-breakpoint
ALTER TABLE "monitor_events" ADD CONSTRAINT "monitor_events_group_id_monitor_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."monitor_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_events" ADD CONSTRAINT "monitor_events_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_group_monitors" ADD CONSTRAINT "monitor_group_monitors_group_id_monitor_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."monitor_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_group_monitors" ADD CONSTRAINT "monitor_group_monitors_monitor_id_monitor_nodes_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_groups" ADD CONSTRAINT "monitor_groups_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_nodes" ADD CONSTRAINT "monitor_nodes_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_nodes" ADD CONSTRAINT "monitor_nodes_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_probe_states" ADD CONSTRAINT "monitor_probe_states_group_id_monitor_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."monitor_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_probe_states" ADD CONSTRAINT "monitor_probe_states_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_probe_states" ADD CONSTRAINT "monitor_probe_states_monitor_id_monitor_nodes_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor_nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_targets" ADD CONSTRAINT "monitor_targets_group_id_monitor_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."monitor_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_targets" ADD CONSTRAINT "monitor_targets_node_id_nodes_id_fk" FOREIGN KEY ("node_id") REFERENCES "public"."nodes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitor_events_target_idx" ON "monitor_events" USING btree ("group_id","node_id","at");--> statement-breakpoint
CREATE INDEX "monitor_group_monitors_monitor_idx" ON "monitor_group_monitors" USING btree ("monitor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_groups_owner_name_key" ON "monitor_groups" USING btree ("owner_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_nodes_node_key" ON "monitor_nodes" USING btree ("node_id");--> statement-breakpoint
CREATE INDEX "monitor_nodes_owner_idx" ON "monitor_nodes" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "monitor_targets_node_idx" ON "monitor_targets" USING btree ("node_id");