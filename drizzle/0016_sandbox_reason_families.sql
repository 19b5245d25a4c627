-- docs/decisions/071: the sandbox's reasons quantity-limit and package-included are billing (BE),
-- as lib/denials/classify.ts says (lib/denials/denials.test.ts checks both agree).
CREATE OR REPLACE FUNCTION denial_family(code text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN btrim(code) IN ('ar001', 'ar002', 'coverage-inactive') THEN 'CV'
    WHEN btrim(code) IN ('price-list', 'quantity-limit', 'package-included') THEN 'BE'
    WHEN btrim(code) = 'preauth-required' THEN 'AD'
    WHEN btrim(code) ~* '^(AD|CV|MN|SE|BE)[-_]' THEN upper(substr(btrim(code), 1, 2))
    ELSE '' END
$$;
