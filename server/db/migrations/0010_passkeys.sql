-- Passkeys as a way into a user (WebAuthn on the frame's origin). A credential
-- belongs to one user (its public key, COSE, and the last signature counter seen); a ceremony in
-- progress keeps its challenge for 5 minutes, single use, bound to the frame that started it (the
-- SHA-256 of its binding secret) and, when it links a passkey, to the signed-in user.
CREATE TABLE "wallet_passkeys" (
	"credential_id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"public_key" bytea NOT NULL,
	"counter" bigint NOT NULL,
	"transports" text[] NOT NULL,
	"backed_up" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_passkeys_user_idx" ON "wallet_passkeys" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "wallet_passkey_ceremonies" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"challenge" text NOT NULL,
	"device_id" text NOT NULL,
	"site" text NOT NULL,
	"binding_hash" bytea NOT NULL,
	"user_id" uuid REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "wallet_passkey_ceremonies_expires_idx" ON "wallet_passkey_ceremonies" USING btree ("expires_at");
