export { insurerNames } from "@/lib/patients";
