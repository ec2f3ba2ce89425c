CREATE TABLE "dp_site_parts" (
	"site_id" bigint PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
