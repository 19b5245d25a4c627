export { insurerNames } from "@/lib/patients/insurer-names";
