/** lib/facilities: a clinic group's facilities, each with its licence and certificate (decision 049). */
export {
  MAIN_FACILITY_CODE,
  FacilityInputError,
  addFacility,
  assignUserFacility,
  checkCertificatePair,
  facilityByCode,
  getFacility,
  listFacilities,
  setFacilityActive,
  userFacilityId,
  type Facility,
  type FacilityInput,
} from "./store";
export {
  DEMO_PRACTITIONERS,
  addPractitioner,
  listPractitioners,
  practitionersByIds,
  seedDemoPractitioners,
  type Practitioner,
  type PractitionerInput,
} from "./practitioners";
