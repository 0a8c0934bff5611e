-- The fixed text of the generated SQL, as one file PostgreSQL runs as it stands
-- (tests/gen_sql.rs). The SQL backend copies the sections a rule needs: each starts at a
-- `-- rulec: NAME` line and runs to the next one.

-- rulec: isqrt
-- The whole square root: the largest r with r * r <= x, by a binary search over whole
-- numbers (no single expression holds it). NULL for NULL, as the query's NULLs need; 0 for a
-- number below zero, which only a row the door refused can hold. Every rule's function file
-- that needs it defines it, the same text each time.
CREATE OR REPLACE FUNCTION rulec_isqrt("x" bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $rulec$
DECLARE
  lo bigint := 0;
  hi bigint := LEAST(3037000499, GREATEST("x", 0));
  mid bigint;
BEGIN
  WHILE lo < hi LOOP
    mid := lo + (hi - lo + 1) / 2;
    IF mid * mid <= "x" THEN
      lo := mid;
    ELSE
      hi := mid - 1;
    END IF;
  END LOOP;
  RETURN lo;
END
$rulec$;
