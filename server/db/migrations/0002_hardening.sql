-- Hardening: token keys by purpose, with rotation; the index the analytics retention job
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
--> statement-breakpoint
-- Takes p_cost tokens from the bucket p_key (capacity p_capacity, refilled p_per_ms tokens a millisecond,
-- p_now the caller's clock in ms), creating it full. Answers 0 when taken, else the milliseconds until
-- enough tokens are back (nothing is taken then). The row lock makes it atomic across instances.
CREATE FUNCTION "rate_limit_take"(p_key text, p_capacity double precision, p_per_ms double precision, p_cost double precision, p_now bigint)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	v_tokens double precision;
	v_updated bigint;
	v_available double precision;
BEGIN
	SELECT "tokens", "updated_at" INTO v_tokens, v_updated FROM "rate_limits" WHERE "key" = p_key FOR UPDATE;
	IF NOT FOUND THEN
		INSERT INTO "rate_limits" ("key", "tokens", "updated_at") VALUES (p_key, p_capacity, p_now) ON CONFLICT ("key") DO NOTHING;
		SELECT "tokens", "updated_at" INTO v_tokens, v_updated FROM "rate_limits" WHERE "key" = p_key FOR UPDATE;
	END IF;
	v_available := least(p_capacity, v_tokens + greatest(0, p_now - v_updated) * p_per_ms);
	IF v_available < p_cost THEN
		RETURN ceil((p_cost - v_available) / p_per_ms);
	END IF;
	UPDATE "rate_limits" SET "tokens" = v_available - p_cost, "updated_at" = greatest(v_updated, p_now) WHERE "key" = p_key;
	RETURN 0;
END
$$;
