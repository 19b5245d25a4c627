-- Issue 44 (decision 102): a temporary password set by an administrator, or the published demo
-- password used outside the sandbox, must be changed before the user can do anything else.
ALTER TABLE "users" ADD COLUMN "must_change_password" boolean DEFAULT false NOT NULL;
