-- Bound sign-ins and sessions: a social or Farcaster sign-in is bound to the frame that started it (the
-- SHA-256 of its binding secret) and a social one to the browser the provider sent back (the SHA-256
-- of the callback page's handover secret); a session is bound to the browser's own key (its public
-- key, SPKI, URL-safe base64) and ends after a week without use.
ALTER TABLE "wallet_social_logins" ADD COLUMN "binding_hash" bytea;
--> statement-breakpoint
ALTER TABLE "wallet_social_logins" ADD COLUMN "handover_hash" bytea;
--> statement-breakpoint
ALTER TABLE "wallet_farcaster_logins" ADD COLUMN "binding_hash" bytea;
--> statement-breakpoint
ALTER TABLE "wallet_sessions" ADD COLUMN "last_used_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "wallet_sessions" ADD COLUMN "public_key" text;
--> statement-breakpoint
CREATE TABLE "wallet_session_nonces" (
	"session_id" uuid NOT NULL REFERENCES "wallet_sessions"("id") ON DELETE CASCADE,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("session_id", "nonce")
);
--> statement-breakpoint
CREATE INDEX "wallet_session_nonces_expires_idx" ON "wallet_session_nonces" USING btree ("expires_at");
