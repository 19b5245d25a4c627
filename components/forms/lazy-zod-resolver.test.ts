import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { loadSignInSchema } from "@/lib/auth/browser";
import { signInSchema } from "@/lib/auth/schemas";
import { loadSubmissionFormSchema } from "@/lib/submissions/browser";
import { submissionFormSchema } from "@/lib/submissions/form-schema";
import { loadEligibilityFormSchema } from "@/lib/eligibility/browser";
import { eligibilityFormSchema } from "@/lib/eligibility/schema";
import { loadAnswerSchema } from "@/lib/information-requests/browser";
import { answerSchema } from "@/lib/information-requests/schema";
import { loadPatientFormSchemas } from "@/lib/patients/browser";
import { addCoverageSchema } from "@/lib/patients/schemas";
import { lazyZodResolver } from "./lazy-zod-resolver";

const schema = z.object({ email: z.string().email("emailInvalid"), age: z.coerce.number().int().min(18, "tooYoung") });
type Values = z.input<typeof schema>;
const options = { fields: {}, shouldUseNativeValidation: false } as const;

describe("lazyZodResolver", () => {
  it("loads nothing until it is used, then validates with the loaded schema", async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver<Values>(load);
    expect(load).not.toHaveBeenCalled();

    const bad = await resolver({ email: "nope", age: "12" }, undefined, options);
    expect(bad.values).toEqual({});
    expect(bad.errors.email?.message).toBe("emailInvalid");
    expect(bad.errors.age?.message).toBe("tooYoung");

    const good = await resolver({ email: "a@clinic.example", age: "40" }, undefined, options);
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({ email: "a@clinic.example", age: 40 });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("preload starts the one load the validations then share", async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver<Values>(load);
    resolver.preload();
    resolver.preload();
    await Promise.all([resolver({ email: "x", age: "1" }, undefined, options), resolver({ email: "y", age: "2" }, undefined, options)]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("a failed load (a chunk that did not arrive) fails that validation and is tried again on the next", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("ChunkLoadError")).mockResolvedValue(schema);
    const resolver = lazyZodResolver<Values>(load);
    await expect(resolver({ email: "x", age: "1" }, undefined, options)).rejects.toThrow("ChunkLoadError");
    expect((await resolver({ email: "x", age: "1" }, undefined, options)).errors.email?.message).toBe("emailInvalid");
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("a failed preload is no unhandled rejection, and the validation after it loads again", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("ChunkLoadError")).mockResolvedValue(schema);
    const resolver = lazyZodResolver<Values>(load);
    resolver.preload();
    await new Promise((r) => setTimeout(r, 0));
    expect((await resolver({ email: "a@clinic.example", age: "30" }, undefined, options)).errors).toEqual({});
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("each browser entry's loader answers the very schema the server action parses", async () => {
    expect(await loadSubmissionFormSchema()).toBe(submissionFormSchema);
    expect(await loadEligibilityFormSchema()).toBe(eligibilityFormSchema);
    expect(await loadSignInSchema()).toBe(signInSchema);
    expect(await loadAnswerSchema()).toBe(answerSchema);
    expect((await loadPatientFormSchemas()).addCoverageSchema).toBe(addCoverageSchema);
  });
});
