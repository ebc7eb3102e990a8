-- Transaction history: the indexer's place per network, with the lease that lets exactly
-- one instance index a network at a time, and the transfers it found.

-- Per network: the next block to index, the hash of the block before it (a different hash there means
-- the chain was reset), and which instance holds the indexing lease until when (the database's clock).
CREATE TABLE "history_networks" (
	"chain_id" text PRIMARY KEY NOT NULL,
	"next_block" bigint DEFAULT 0 NOT NULL,
	"last_hash" text,
	"holder" text,
	"lease_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One movement of value: a transaction's native value (log_index -1) or an ERC-20 Transfer log.
-- Addresses and tokens in lower case; token is 'native' or the contract.
CREATE TABLE "history_transfers" (
	"chain_id" text NOT NULL,
	"block_number" bigint NOT NULL,
	"tx_index" integer NOT NULL,
	"log_index" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"mined_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('transfer', 'swap', 'onramp')),
	"token" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "history_transfers_pk" PRIMARY KEY ("chain_id", "block_number", "tx_index", "log_index")
);
--> statement-breakpoint
CREATE INDEX "history_transfers_from_idx" ON "history_transfers" USING btree ("chain_id", "from_address", "block_number", "tx_index");
--> statement-breakpoint
CREATE INDEX "history_transfers_to_idx" ON "history_transfers" USING btree ("chain_id", "to_address", "block_number", "tx_index");
