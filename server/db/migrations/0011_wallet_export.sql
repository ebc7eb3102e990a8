-- Export and delete: codes mailed afresh to show the keys ('export') or delete the wallet ('delete'), and
-- the record that a user's keys were exported (the time only, never a key). The record names the user
-- without a foreign key: it outlives the wallet's deletion, which it allows.
ALTER TABLE "wallet_codes" DROP CONSTRAINT "wallet_codes_purpose_check";
--> statement-breakpoint
ALTER TABLE "wallet_codes" ADD CONSTRAINT "wallet_codes_purpose_check" CHECK ("purpose" IN ('login', 'update-primary', 'update-secondary', 'export', 'delete'));
--> statement-breakpoint
CREATE TABLE "wallet_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"exported_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_exports_user_idx" ON "wallet_exports" USING btree ("user_id");
