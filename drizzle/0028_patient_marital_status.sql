-- Decision 103 (the exchange's Minimum Data Set): the patient's marital status, asked at registration
-- and sent as Patient.maritalStatus. Null for patients registered before it was asked.
ALTER TABLE "patients" ADD COLUMN "marital_status" text;
