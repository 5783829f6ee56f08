-- The fidelity test's workload (tests/vm/guest/fidelity.sh): sqlite3
-- building, indexing, querying and checking an in-memory database, all
-- data generated deterministically, so that every run executes the same
-- code.  The last line tells the guest script the workload is done.
PRAGMA temp_store = memory;
CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, grp INTEGER,
	price REAL, tags TEXT, doc TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
INSERT INTO item
SELECT i, printf('item-%05d-%s', i, substr('abcdefghijklmnopqrstuvwxyz', i % 26 + 1, 5)),
	(i * 7919) % 97, round(((i * 104729) % 100000) / 100.0, 2),
	json_array(i % 5, i % 7, 'k' || (i % 11)),
	replace(printf('%d word%d alpha beta gamma delta %d', i, i % 113, i % 17), 'a', 'o')
FROM n;
CREATE INDEX item_grp ON item(grp, price);
CREATE UNIQUE INDEX item_name ON item(name);
CREATE TABLE grp(id INTEGER PRIMARY KEY, label TEXT, weight INTEGER);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 96)
INSERT INTO grp SELECT i, 'group ' || hex(i * 31), (i * 13) % 29 FROM n;
CREATE VIEW summary AS
SELECT g.label, count(*) AS n, sum(i.price) AS total, avg(i.price) AS mean,
	min(i.name) AS first, max(i.name) AS last
FROM item i JOIN grp g ON g.id = i.grp GROUP BY g.id;
CREATE TABLE audit(at INTEGER, what TEXT);
CREATE TRIGGER item_price AFTER UPDATE OF price ON item
BEGIN INSERT INTO audit VALUES (new.id, old.price || '->' || new.price); END;
UPDATE item SET price = price * 1.1 WHERE grp IN (3, 5, 7, 11, 13);
SELECT count(*), sum(length(what)) FROM audit;
SELECT label, n, printf('%.2f', total), printf('%.3f', mean), first, last
FROM summary ORDER BY total DESC LIMIT 5;
SELECT grp, id, price, rank() OVER (PARTITION BY grp ORDER BY price DESC) AS r,
	sum(price) OVER (PARTITION BY grp ORDER BY id ROWS 3 PRECEDING) AS s
FROM item WHERE id % 500 = 0 ORDER BY grp, r LIMIT 20;
SELECT json_group_array(json_object('id', id, 'tag', json_extract(tags, '$[2]')))
FROM item WHERE id < 20;
SELECT json_extract(tags, '$[0]') AS t, count(*) FROM item GROUP BY t ORDER BY t;
SELECT count(*) FROM item WHERE name LIKE '%-0_1%' OR doc GLOB '*word1[0-9] *';
SELECT upper(substr(doc, 1, 12)), instr(doc, 'gommo'), length(doc)
FROM item WHERE id BETWEEN 100 AND 105;
CREATE VIRTUAL TABLE docs USING fts5(body);
INSERT INTO docs SELECT doc FROM item;
SELECT count(*) FROM docs WHERE docs MATCH 'word42 AND delto';
SELECT highlight(docs, 0, '[', ']') FROM docs WHERE docs MATCH 'word7' ORDER BY rank LIMIT 3;
CREATE VIRTUAL TABLE box USING rtree(id, x0, x1, y0, y1);
INSERT INTO box SELECT id, grp, grp + 5, price, price + 10 FROM item WHERE id % 4 = 0;
SELECT count(*) FROM box WHERE x0 <= 50 AND x1 >= 40 AND y0 <= 500 AND y1 >= 400;
INSERT INTO grp(id, label, weight) VALUES (5, 'five', 1)
	ON CONFLICT(id) DO UPDATE SET label = excluded.label, weight = weight + 1;
WITH RECURSIVE fib(a, b, k) AS (SELECT 0, 1, 0 UNION ALL SELECT b, a + b, k + 1 FROM fib WHERE k < 80)
SELECT max(a), count(*) FROM fib;
SELECT i.grp, group_concat(DISTINCT g.weight), total(i.price)
FROM item i LEFT JOIN grp g ON g.weight = i.grp % 29
WHERE i.id % 3 = 0 GROUP BY i.grp HAVING count(*) > 60 ORDER BY 3 DESC LIMIT 5;
SELECT name FROM item ORDER BY doc DESC, price LIMIT 3;
SELECT count(*) FROM (SELECT DISTINCT substr(name, 12) FROM item);
DELETE FROM item WHERE id % 10 = 0;
ANALYZE;
SELECT count(*) FROM item INDEXED BY item_grp WHERE grp = 42 AND price > 500;
SELECT * FROM pragma_integrity_check;
SELECT 'fidelity-done';
