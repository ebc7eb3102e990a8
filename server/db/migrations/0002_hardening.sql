-- Hardening (issue 10): token keys by purpose, with rotation; the index the analytics retention job
-- deletes by; counters for rate limits shared by every instance.

-- Nonce tokens get their own key, never published, so no session verifier accepts one; session keys are
-- rotated: the retired one keeps verifying (and stays in the JWKS) until its last session ends.
ALTER TABLE "auth_keys" ADD COLUMN "purpose" text DEFAULT 'session' NOT NULL CHECK ("purpose" IN ('session', 'nonce'));
--> statement-breakpoint
ALTER TABLE "auth_keys" ADD COLUMN "retired_at" timestamp with time zone;
--> statement-breakpoint
DROP INDEX "auth_keys_one_active_idx";
--> statement-breakpoint
CREATE UNIQUE INDEX "auth_keys_one_active_per_purpose_idx" ON "auth_keys" USING btree ("purpose") WHERE "active";
--> statement-breakpoint
CREATE INDEX "auth_sessions_key_expires_idx" ON "auth_sessions" USING btree ("key_id", "expires_at");
--> statement-breakpoint
CREATE INDEX "analytics_events_received_idx" ON "analytics_events" USING btree ("received_at");
--> statement-breakpoint
-- A token bucket per limit, client and project. Unlogged: counters need no crash safety, and every
-- limited request writes here, so skipping the WAL keeps it cheap.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_updated_idx" ON "rate_limits" USING btree ("updated_at");
