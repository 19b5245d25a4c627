import { CPT_CODES, ICD10AM_CODES } from "@/lib/fhir/browser";
import * as mds from "@/lib/fhir/mds";
import type { CatalogueSystemKey } from "./systems";

/**
 * The demo catalogue that ships (docs/decisions/086): a few dozen codes per system so the pickers
 * work on a fresh install and in training. Written by us — invented codes (the exchange's systems)
 * or our own short wording (ICD-10-AM, CPT: lib/fhir's curated lists); never a vendored code set.
 * The codes the sandbox prices (sandbox/catalogue.ts) are all here, so what the picker offers the
 * sandbox accepts. A clinic's own import of a system replaces that system's demo codes.
 */
export type DemoCode = readonly [code: string, en: string, ar: string];

const SERVICES: readonly DemoCode[] = [
  ["SVC-0101", "General practitioner consultation", "استشارة طبيب عام"],
  ["SVC-0102", "Specialist consultation", "استشارة طبيب أخصائي"],
  ["SVC-0103", "Consultant consultation", "استشارة طبيب استشاري"],
  ["SVC-0104", "Follow-up visit within two weeks", "زيارة متابعة خلال أسبوعين"],
  ["SVC-0105", "Telephone consultation", "استشارة هاتفية"],
  ["SVC-0106", "Video consultation", "استشارة مرئية"],
  ["SVC-0107", "Dietitian session", "جلسة أخصائي تغذية"],
  ["SVC-0108", "Physiotherapy session", "جلسة علاج طبيعي"],
  ["SVC-0109", "Psychology session", "جلسة أخصائي نفسي"],
  ["SVC-0110", "Home visit by a nurse", "زيارة منزلية من ممرض"],
  ["SVC-0201", "Emergency assessment", "تقييم في الطوارئ"],
  ["SVC-0202", "Emergency observation, up to six hours", "ملاحظة في الطوارئ حتى ست ساعات"],
  ["SVC-0301", "Ward bed, one day", "سرير في الجناح ليوم واحد"],
  ["SVC-0302", "Private room, one day", "غرفة خاصة ليوم واحد"],
  ["SVC-0303", "Intensive care bed, one day", "سرير عناية مركزة ليوم واحد"],
  ["SVC-0304", "Companion bed, one day", "سرير مرافق ليوم واحد"],
  ["SVC-0401", "Eye examination and refraction", "فحص العين وقياس النظر"],
  ["SVC-0402", "Single-vision spectacle lenses, pair", "عدسات نظارة أحادية البؤرة، زوج"],
  ["SVC-0403", "Contact lenses, cosmetic", "عدسات لاصقة تجميلية"],
  ["SVC-0404", "Spectacle frame", "إطار نظارة"],
  ["SVC-0405", "Bifocal spectacle lenses, pair", "عدسات نظارة ثنائية البؤرة، زوج"],
  ["SVC-0601", "Ambulance transfer within the city", "نقل بالإسعاف داخل المدينة"],
  ["SVC-0701", "Vaccination visit", "زيارة تطعيم"],
  ["PKG-0501", "Normal delivery package, two days", "باقة ولادة طبيعية ليومين"],
  ["PKG-0502", "Day-case knee arthroscopy package", "باقة منظار الركبة في اليوم نفسه"],
  ["PKG-0503", "Caesarean delivery package, three days", "باقة ولادة قيصرية لثلاثة أيام"],
];

const PROCEDURES: readonly DemoCode[] = [
  ["PRC-1001", "Suture of a small wound", "خياطة جرح صغير"],
  ["PRC-1002", "Joint injection", "حقن المفصل"],
  ["PRC-1003", "Laparoscopic gall bladder removal", "استئصال المرارة بالمنظار"],
  ["PRC-1004", "Removal of a skin lesion", "إزالة آفة جلدية"],
  ["PRC-1005", "Drainage of an abscess", "تصريف خراج"],
  ["PRC-1006", "Ingrown toenail treatment", "علاج الظفر الغارز"],
  ["PRC-1007", "Plaster cast of the forearm", "جبيرة جبس للساعد"],
  ["PRC-1008", "Removal of a foreign body from the eye", "إزالة جسم غريب من العين"],
  ["PRC-1009", "Ear wax removal", "إزالة شمع الأذن"],
  ["PRC-1010", "Nebuliser treatment", "علاج بالبخار"],
  ["PRC-1011", "Intravenous fluids, first hour", "محاليل وريدية، الساعة الأولى"],
  ["PRC-1012", "Urinary catheter insertion", "تركيب قسطرة بولية"],
  ["PRC-1013", "Upper endoscopy", "منظار علوي للجهاز الهضمي"],
  ["PRC-1014", "Colonoscopy", "منظار القولون"],
  ["PRC-1015", "Knee arthroscopy", "منظار الركبة"],
  ["PRC-1016", "Appendix removal", "استئصال الزائدة الدودية"],
  ["PRC-1017", "Inguinal hernia repair", "إصلاح الفتق الإربي"],
  ["PRC-1018", "Tonsil removal", "استئصال اللوزتين"],
  ["PRC-1019", "Cataract removal with lens implant", "إزالة الماء الأبيض مع زرع عدسة"],
  ["PRC-1020", "Electrocardiogram", "تخطيط القلب الكهربائي"],
  ["PRC-1021", "Exercise stress test", "اختبار الجهد"],
  ["PRC-1022", "Lung function test", "اختبار وظائف الرئة"],
  ["PRC-1023", "Hearing test", "اختبار السمع"],
  ["PRC-1024", "Allergy skin test", "اختبار الحساسية الجلدي"],
];

const ORAL_OP: readonly DemoCode[] = [
  ["ORL-2001", "Dental examination", "فحص الأسنان"],
  ["ORL-2002", "Scaling and polishing", "تنظيف الجير وتلميع الأسنان"],
  ["ORL-2003", "Composite filling, one surface", "حشوة تجميلية لسطح واحد"],
  ["ORL-2004", "Root canal treatment, molar", "علاج عصب ضرس"],
  ["ORL-2005", "Porcelain crown", "تاج خزفي"],
  ["ORL-2006", "Tooth whitening", "تبييض الأسنان"],
  ["ORL-2007", "Composite filling, two surfaces", "حشوة تجميلية لسطحين"],
  ["ORL-2008", "Amalgam filling, one surface", "حشوة فضية لسطح واحد"],
  ["ORL-2009", "Root canal treatment, front tooth", "علاج عصب سن أمامي"],
  ["ORL-2010", "Simple tooth extraction", "خلع سن بسيط"],
  ["ORL-2011", "Fluoride application", "وضع الفلورايد"],
  ["ORL-2012", "Fissure sealant, one tooth", "سد الشقوق لسن واحد"],
  ["ORL-2013", "Dental X-ray, one film", "أشعة سينية للأسنان، صورة واحدة"],
  ["ORL-2014", "Panoramic dental X-ray", "أشعة بانورامية للأسنان"],
  ["ORL-2015", "Temporary filling", "حشوة مؤقتة"],
  ["ORL-2016", "Gum treatment, one quadrant", "علاج اللثة لربع الفم"],
  ["ORL-2017", "Removable partial denture", "طقم أسنان جزئي متحرك"],
  ["ORL-2018", "Complete denture, one jaw", "طقم أسنان كامل لفك واحد"],
  ["ORL-2019", "Space maintainer for a child", "حافظ مسافة لطفل"],
  ["ORL-2020", "Emergency dental visit for pain", "زيارة طوارئ أسنان لألم"],
];

const ORAL_IP: readonly DemoCode[] = [
  ["ORL-2101", "Surgical removal of an impacted tooth under general anaesthesia", "خلع جراحي لسن مطمور تحت التخدير العام"],
  ["ORL-2102", "Full-mouth dental treatment under general anaesthesia", "علاج أسنان شامل تحت التخدير العام"],
  ["ORL-2103", "Jaw fracture fixation", "تثبيت كسر الفك"],
  ["ORL-2104", "Removal of a jaw cyst", "استئصال كيس في الفك"],
  ["ORL-2105", "Drainage of a facial dental abscess", "تصريف خراج أسنان في الوجه"],
  ["ORL-2106", "Bone graft before implants", "ترقيع عظمي قبل الزراعة"],
  ["ORL-2107", "Surgical removal of several teeth", "خلع جراحي لعدة أسنان"],
  ["ORL-2108", "Cleft palate repair", "إصلاح شق الحنك"],
  ["ORL-2109", "Biopsy of the mouth", "أخذ خزعة من الفم"],
  ["ORL-2110", "Hospital stay after oral surgery, one day", "إقامة بعد جراحة الفم ليوم واحد"],
];

const MEDICATIONS: readonly DemoCode[] = [
  ["06280000000101", "Paracetamol 500 mg, 24 tablets", "باراسيتامول 500 ملغ، 24 قرصاً"],
  ["06280000000102", "Amoxicillin 500 mg, 21 capsules", "أموكسيسيلين 500 ملغ، 21 كبسولة"],
  ["06280000000103", "Metformin 850 mg, 60 tablets", "ميتفورمين 850 ملغ، 60 قرصاً"],
  ["06280000000104", "Insulin glargine pen, 5 pens", "قلم إنسولين جلارجين، 5 أقلام"],
  ["06280000000105", "Ibuprofen 400 mg, 30 tablets", "إيبوبروفين 400 ملغ، 30 قرصاً"],
  ["06280000000106", "Omeprazole 20 mg, 28 capsules", "أوميبرازول 20 ملغ، 28 كبسولة"],
  ["06280000000107", "Amlodipine 5 mg, 30 tablets", "أملوديبين 5 ملغ، 30 قرصاً"],
  ["06280000000108", "Atorvastatin 20 mg, 30 tablets", "أتورفاستاتين 20 ملغ، 30 قرصاً"],
  ["06280000000109", "Salbutamol inhaler, 200 doses", "بخاخ سالبوتامول، 200 جرعة"],
  ["06280000000110", "Cetirizine 10 mg, 20 tablets", "سيتيريزين 10 ملغ، 20 قرصاً"],
  ["06280000000111", "Azithromycin 250 mg, 6 tablets", "أزيثرومايسين 250 ملغ، 6 أقراص"],
  ["06280000000112", "Paracetamol syrup for children, 100 ml", "شراب باراسيتامول للأطفال، 100 مل"],
  ["06280000000113", "Oral rehydration salts, 10 sachets", "أملاح إرواء فموية، 10 أكياس"],
  ["06280000000114", "Vitamin D 50,000 units, 4 capsules", "فيتامين د 50,000 وحدة، 4 كبسولات"],
  ["06280000000115", "Iron with folic acid, 30 tablets", "حديد مع حمض الفوليك، 30 قرصاً"],
  ["06280000000116", "Losartan 50 mg, 30 tablets", "لوسارتان 50 ملغ، 30 قرصاً"],
  ["06280000000117", "Hydrocortisone cream 1%, 30 g", "كريم هيدروكورتيزون 1%، 30 غ"],
  ["06280000000118", "Antibiotic eye drops, 5 ml", "قطرة عين مضادة حيوية، 5 مل"],
  ["06280000000119", "Saline nasal spray, 20 ml", "بخاخ أنف ملحي، 20 مل"],
  ["06280000000120", "Insulin pen needles, 100", "إبر قلم الإنسولين، 100"],
];

const IMAGING: readonly DemoCode[] = [
  ["IMG-3001", "Chest X-ray, two views", "أشعة سينية للصدر، منظران"],
  ["IMG-3002", "Ultrasound of the abdomen", "أشعة صوتية للبطن"],
  ["IMG-3003", "MRI of the brain with contrast", "رنين مغناطيسي للدماغ بالصبغة"],
  ["IMG-3004", "X-ray of the hand", "أشعة سينية لليد"],
  ["IMG-3005", "X-ray of the knee", "أشعة سينية للركبة"],
  ["IMG-3006", "X-ray of the lower back", "أشعة سينية لأسفل الظهر"],
  ["IMG-3007", "Ultrasound in pregnancy", "أشعة صوتية للحمل"],
  ["IMG-3008", "Ultrasound of the thyroid", "أشعة صوتية للغدة الدرقية"],
  ["IMG-3009", "CT of the head without contrast", "أشعة مقطعية للرأس بدون صبغة"],
  ["IMG-3010", "CT of the abdomen with contrast", "أشعة مقطعية للبطن بالصبغة"],
  ["IMG-3011", "MRI of the knee", "رنين مغناطيسي للركبة"],
  ["IMG-3012", "MRI of the lower back", "رنين مغناطيسي لأسفل الظهر"],
  ["IMG-3013", "Mammogram, both sides", "تصوير الثدي الشعاعي للجانبين"],
  ["IMG-3014", "Bone density scan", "فحص كثافة العظام"],
  ["IMG-3015", "Doppler ultrasound of leg veins", "أشعة دوبلر لأوردة الساق"],
  ["IMG-3016", "Echocardiogram", "تخطيط صدى القلب"],
  ["IMG-3017", "X-ray of the sinuses", "أشعة سينية للجيوب الأنفية"],
  ["IMG-3018", "Ultrasound of the kidneys and bladder", "أشعة صوتية للكلى والمثانة"],
];

const LABORATORY: readonly DemoCode[] = [
  ["LAB-4001", "Complete blood count", "صورة دم كاملة"],
  ["LAB-4002", "HbA1c", "السكر التراكمي"],
  ["LAB-4003", "Comprehensive metabolic panel", "لوحة الأيض الشاملة"],
  ["LAB-4004", "Fasting blood sugar", "سكر الدم الصائم"],
  ["LAB-4005", "Lipid profile", "دهون الدم"],
  ["LAB-4006", "Thyroid stimulating hormone", "الهرمون المنبه للغدة الدرقية"],
  ["LAB-4007", "Liver function tests", "وظائف الكبد"],
  ["LAB-4008", "Kidney function tests", "وظائف الكلى"],
  ["LAB-4009", "Urine analysis", "تحليل البول"],
  ["LAB-4010", "Urine culture", "مزرعة البول"],
  ["LAB-4011", "Throat swab culture", "مزرعة مسحة الحلق"],
  ["LAB-4012", "Vitamin D level", "مستوى فيتامين د"],
  ["LAB-4013", "Iron studies", "دراسة الحديد"],
  ["LAB-4014", "C-reactive protein", "البروتين المتفاعل سي"],
  ["LAB-4015", "Pregnancy test, blood", "اختبار الحمل بالدم"],
  ["LAB-4016", "Stool analysis", "تحليل البراز"],
  ["LAB-4017", "Blood group and Rh", "فصيلة الدم والعامل الريصي"],
  ["LAB-4018", "Coagulation profile", "اختبارات تخثر الدم"],
  ["LAB-4019", "Hepatitis B surface antigen", "المستضد السطحي لالتهاب الكبد ب"],
  ["LAB-4020", "Vitamin B12 level", "مستوى فيتامين ب12"],
];

/** Medicines by scientific name (pharmacy claims): invented X-codes, our own wording. */
const SCIENTIFIC: readonly DemoCode[] = [
  ["XSC-0001", "Paracetamol 500 mg tablet", "باراسيتامول 500 ملغ قرص"],
  ["XSC-0002", "Ibuprofen 400 mg tablet", "إيبوبروفين 400 ملغ قرص"],
  ["XSC-0003", "Amoxicillin 500 mg capsule", "أموكسيسيلين 500 ملغ كبسولة"],
  ["XSC-0004", "Metformin 500 mg tablet", "ميتفورمين 500 ملغ قرص"],
  ["XSC-0005", "Amlodipine 5 mg tablet", "أملوديبين 5 ملغ قرص"],
  ["XSC-0006", "Omeprazole 20 mg capsule", "أوميبرازول 20 ملغ كبسولة"],
  ["XSC-0007", "Salbutamol inhaler", "بخاخ سالبيوتامول"],
  ["XSC-0008", "Atorvastatin 20 mg tablet", "أتورفاستاتين 20 ملغ قرص"],
  ["XSC-0009", "Cetirizine 10 mg tablet", "سيتيريزين 10 ملغ قرص"],
  ["XSC-0010", "Insulin glargine pen", "قلم إنسولين جلارجين"],
];

/** Medical devices: invented X-codes, our own wording. */
const DEVICES: readonly DemoCode[] = [
  ["XMD-0001", "Blood glucose meter", "جهاز قياس السكر"],
  ["XMD-0002", "Glucose test strips, box of 50", "شرائط اختبار السكر، علبة 50"],
  ["XMD-0003", "Knee brace", "دعامة الركبة"],
  ["XMD-0004", "Elbow crutches, pair", "عكازات المرفق، زوج"],
  ["XMD-0005", "Nebuliser", "جهاز البخار"],
  ["XMD-0006", "Blood pressure monitor", "جهاز قياس الضغط"],
  ["XMD-0007", "Wheelchair, standard", "كرسي متحرك عادي"],
  ["XMD-0008", "Compression stockings, pair", "جوارب ضاغطة، زوج"],
  ["XMD-0009", "Spacer for inhaler", "حجرة موسعة للبخاخ"],
  ["XMD-0010", "Cervical collar", "طوق الرقبة"],
];

/** Ambulance transport: invented X-codes, our own wording. */
const TRANSPORT: readonly DemoCode[] = [
  ["XTR-0001", "Basic ambulance, within the city", "إسعاف أساسي داخل المدينة"],
  ["XTR-0002", "Basic ambulance, between cities", "إسعاف أساسي بين المدن"],
  ["XTR-0003", "Advanced ambulance, within the city", "إسعاف متقدم داخل المدينة"],
  ["XTR-0004", "Advanced ambulance, between cities", "إسعاف متقدم بين المدن"],
  ["XTR-0005", "Air ambulance, per hour", "إسعاف جوي، لكل ساعة"],
  ["XTR-0006", "Neonatal transport incubator", "حاضنة نقل حديثي الولادة"],
  ["XTR-0007", "Patient transfer between hospitals", "نقل مريض بين المستشفيات"],
  ["XTR-0008", "Standby ambulance at an event, per hour", "إسعاف مرابط في مناسبة، لكل ساعة"],
  ["XTR-0009", "Wheelchair transport", "نقل بكرسي متحرك"],
  ["XTR-0010", "Return trip after discharge", "رحلة عودة بعد الخروج"],
];

/** Ministry of Health categories: invented X-codes, our own wording. */
const MOH_CATEGORY: readonly DemoCode[] = [
  ["XMC-0001", "Primary care visit", "زيارة رعاية أولية"],
  ["XMC-0002", "Secondary care visit", "زيارة رعاية ثانوية"],
  ["XMC-0003", "Tertiary care visit", "زيارة رعاية تخصصية"],
  ["XMC-0004", "Day surgery", "جراحة اليوم الواحد"],
  ["XMC-0005", "Inpatient day, general ward", "يوم تنويم، جناح عام"],
  ["XMC-0006", "Inpatient day, intensive care", "يوم تنويم، عناية مركزة"],
  ["XMC-0007", "Renal dialysis session", "جلسة غسيل كلى"],
  ["XMC-0008", "Chemotherapy session", "جلسة علاج كيميائي"],
  ["XMC-0009", "Rehabilitation session", "جلسة تأهيل"],
  ["XMC-0010", "Home health care visit", "زيارة رعاية صحية منزلية"],
];

/** Vision products: invented X-codes, our own wording. */
const VISION_PRODUCTS: readonly DemoCode[] = [
  ["XVP-0001", "Single-vision lens", "عدسة أحادية البؤرة"],
  ["XVP-0002", "Bifocal lens", "عدسة ثنائية البؤرة"],
  ["XVP-0003", "Progressive lens", "عدسة متعددة البؤر"],
  ["XVP-0004", "Anti-reflective coating", "طبقة مضادة للانعكاس"],
  ["XVP-0005", "Photochromic lens", "عدسة متغيرة اللون"],
  ["XVP-0006", "Spectacle frame, standard", "إطار نظارة عادي"],
  ["XVP-0007", "Monthly contact lenses, box", "عدسات لاصقة شهرية، علبة"],
  ["XVP-0008", "Daily contact lenses, box", "عدسات لاصقة يومية، علبة"],
  ["XVP-0009", "Toric contact lenses, box", "عدسات لاصقة للاستجماتيزم، علبة"],
  ["XVP-0010", "Contact lens solution", "محلول العدسات اللاصقة"],
];

/**
 * ICD-10-AM: lib/fhir's one curated list — the very list the sandbox knows, so a diagnosis the
 * picker offers is never refused as unknown (docs/decisions/104).
 */
const ICD10AM: readonly DemoCode[] = ICD10AM_CODES.map((e) => [e.code, e.display.en, e.display.ar] as const);

/** CPT: lib/fhir's curated list (the spec's REST forms use it; the sandbox prices it). */
const CPT: readonly DemoCode[] = CPT_CODES.map((e) => [e.code, e.display.en, e.display.ar] as const);

/**
 * Practitioner specialties (practice-codes): a demo list in the exchange's code shape with our
 * own names, so care-team cards and the stay's specialties read as words; a clinic imports the
 * exchange's list (which then names the demo practitioners' codes as the exchange does).
 */
const SPECIALTIES: readonly DemoCode[] = [
  ["01.00", "Anaesthesia", "التخدير"],
  ["03.00", "Dermatology", "الأمراض الجلدية"],
  ["04.00", "Emergency medicine", "طب الطوارئ"],
  ["06.00", "Family medicine", "طب الأسرة"],
  ["08.00", "Internal medicine", "الطب الباطني"],
  ["12.00", "Obstetrics and gynaecology", "النساء والولادة"],
  ["13.00", "Ophthalmology", "طب العيون"],
  ["14.00", "Orthopaedics", "جراحة العظام"],
  ["19.00", "Paediatrics", "طب الأطفال"],
  ["21.00", "General surgery", "الجراحة العامة"],
  ["22.00", "Dentistry", "طب الأسنان"],
  ["24.00", "Radiology", "الأشعة"],
];

/** The Minimum Data Set's value sets: their demo entries, written once in lib/fhir's MDS module. */
const MDS_LISTS = {} as Record<mds.MdsListKey, readonly DemoCode[]>;
for (const key of mds.MDS_LIST_KEYS) MDS_LISTS[key] = mds.MDS_CODE_LISTS[key].map((l) => [l.code, l.en, l.ar] as const);

export const DEMO_CATALOGUE: Readonly<Record<CatalogueSystemKey, readonly DemoCode[]>> = {
  services: SERVICES,
  procedures: PROCEDURES,
  "oral-health-op": ORAL_OP,
  "oral-health-ip": ORAL_IP,
  "medication-codes": MEDICATIONS,
  imaging: IMAGING,
  laboratory: LABORATORY,
  "scientific-codes": SCIENTIFIC,
  "medical-devices": DEVICES,
  "transportation-srca": TRANSPORT,
  "moh-category": MOH_CATEGORY,
  "vision-product": VISION_PRODUCTS,
  "icd-10-am": ICD10AM,
  cpt: CPT,
  specialties: SPECIALTIES,
  ...MDS_LISTS,
};

