-- The embedded wallet's Bitcoin keys (BIP-84 public keys; the frame derives them).
CREATE TABLE "wallet_bitcoin_keys" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "wallet_users"("id") ON DELETE CASCADE,
	"mainnet_public_key" text NOT NULL,
	"test_public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
