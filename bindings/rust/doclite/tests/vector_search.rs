//! Vector search from Rust: Couchbase Lite's guide (its index configuration, its SQL++ query,
//! a hybrid one, the builder form), distances against ones computed here, and the
//! configuration's mistakes as errors.

mod common;

use common::TestDatabase;
use doclite::{
    DataSource, DistanceMetric, ErrorKind, Expression, Function, Ordering, QueryBuilder, Result, ScalarQuantizerType,
    SelectResult, VectorEncoding, VectorIndexConfiguration,
};
use serde_json::json;

const COLORS: [(&str, [f64; 3], f64); 8] = [
    ("maroon", [0.5, 0.0, 0.1], 0.9),
    ("red", [1.0, 0.0, 0.0], 1.0),
    ("rose", [0.9, 0.2, 0.25], 0.4),
    ("salmon", [0.98, 0.5, 0.45], 0.53),
    ("orange", [1.0, 0.65, 0.0], 1.0),
    ("pink", [1.0, 0.75, 0.8], 0.25),
    ("grey", [0.5, 0.5, 0.5], 0.0),
    ("blue", [0.0, 0.0, 1.0], 1.0),
];
const TARGET: [f64; 3] = [0.9, 0.1, 0.1];

fn colors_db(name: &str) -> Result<TestDatabase> {
    let db = TestDatabase::new(name);
    let colors = db.create_collection("colors", None)?;
    for (color, vector, saturation) in COLORS {
        colors.put(color, &json!({"color": color, "vector": vector, "saturation": saturation}))?;
    }
    colors.put("nothing", &json!({"color": "nothing"}))?;
    Ok(db)
}

fn colors_of(db: &TestDatabase, sqlpp: &str) -> Result<Vec<String>> {
    let mut query = db.create_query(sqlpp)?;
    query.set_parameters(&json!({"vector": TARGET}))?;
    query.execute()?.map(|row| row?.get::<String>("color")).collect()
}

#[test]
fn the_guides_vector_search() -> Result<()> {
    let db = colors_db("vector-guide")?;
    let colors = db.collection("colors", None)?.unwrap();
    let config = VectorIndexConfiguration::new("vector", 3, 100)
        .encoding(VectorEncoding::None)
        .metric(DistanceMetric::Cosine)
        .num_probes(8)
        .min_training_size(2500)
        .max_training_size(5000);
    colors.create_vector_index("colors_index", &config)?;
    let sql = "SELECT META().id, color FROM _default.colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 4";
    assert_eq!(colors_of(&db, sql)?, ["maroon", "red", "rose", "salmon"]);
    assert!(db.create_query(sql)?.explain()?.contains("vec"));
    let hybrid = "SELECT color FROM colors WHERE saturation > 0.5 ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector)";
    assert_eq!(colors_of(&db, hybrid)?, ["maroon", "red", "salmon", "orange", "blue"]);

    let mut built = QueryBuilder::select([SelectResult::property("color")])
        .from(DataSource::collection(&colors))
        .order_by([Ordering::expression(Function::approx_vector_distance(
            Expression::property("vector"),
            Expression::parameter("vector"),
        ))])
        .limit(Expression::int(3))
        .build()?;
    built.set_parameters(&json!({"vector": TARGET}))?;
    let names: Vec<String> = built.execute()?.map(|row| row?.get::<String>("color")).collect::<Result<_>>()?;
    assert_eq!(names, ["maroon", "red", "rose"]);
    Ok(())
}

#[test]
fn distances_are_the_metrics() -> Result<()> {
    let db = colors_db("vector-metrics")?;
    let colors = db.collection("colors", None)?.unwrap();
    let dot = |v: [f64; 3]| v.iter().zip(TARGET).map(|(a, b)| a * b).sum::<f64>();
    let squared = |v: [f64; 3]| v.iter().zip(TARGET).map(|(a, b)| (a - b) * (a - b)).sum::<f64>();
    for (metric, distance) in [
        (DistanceMetric::EuclideanSquared, Box::new(squared) as Box<dyn Fn([f64; 3]) -> f64>),
        (DistanceMetric::Euclidean, Box::new(move |v| squared(v).sqrt())),
        (DistanceMetric::Dot, Box::new(move |v| -dot(v))),
    ] {
        colors.create_vector_index("v", &VectorIndexConfiguration::new("vector", 3, 2).metric(metric))?;
        let mut query = db.create_query("SELECT color, APPROX_VECTOR_DISTANCE(vector, $vector) AS d FROM colors ORDER BY d LIMIT 8")?;
        query.set_parameters(&json!({"vector": TARGET}))?;
        for row in query.execute()? {
            let row = row?;
            let color = row.get::<String>("color")?;
            let expected = distance(COLORS.iter().find(|c| c.0 == color).unwrap().1);
            assert!((row.get::<f64>("d")? - expected).abs() < 1e-5, "{metric:?} {color}");
        }
    }
    Ok(())
}

#[test]
fn mistakes_are_errors() -> Result<()> {
    let db = colors_db("vector-mistakes")?;
    let colors = db.collection("colors", None)?.unwrap();
    for (config, message) in [
        (VectorIndexConfiguration::new("vector", 0, 8), "dimensions 0 is too small"),
        (VectorIndexConfiguration::new("vector", 5000, 8), "dimensions 5000 is too large"),
        (VectorIndexConfiguration::new("vector", 3, 0), "centroids 0 is too small"),
        (
            VectorIndexConfiguration::new("vector", 3, 8).encoding(VectorEncoding::ProductQuantizer { subquantizers: 2, bits: 8 }),
            "must divide the dimensions",
        ),
    ] {
        let error = colors.create_vector_index("v", &config).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{error}");
        assert!(error.to_string().contains(message), "{error}");
    }
    assert!(colors.index_names()?.is_empty());
    let config = VectorIndexConfiguration::new("vector", 3, 8).encoding(VectorEncoding::ScalarQuantizer(ScalarQuantizerType::SQ4));
    colors.create_vector_index("v", &config)?;
    let error = db
        .create_query("SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector, 'dot') LIMIT 3")
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidQuery);
    assert!(error.to_string().contains("does not match the index's metric"), "{error}");
    Ok(())
}

#[test]
fn a_lazy_index_filled_by_the_application() -> Result<()> {
    let db = colors_db("vector-lazy")?;
    let colors = db.collection("colors", None)?.unwrap();
    let config = VectorIndexConfiguration::new("color", 3, 2).metric(DistanceMetric::Cosine).lazy(true);
    colors.create_vector_index("by_name", &config)?;
    let index = colors.index("by_name")?.unwrap();
    assert_eq!(index.name(), "by_name");
    assert!(colors.index("none")?.is_none());
    let sql = "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(color, $vector, 'cosine') LIMIT 3";
    assert!(colors_of(&db, sql)?.is_empty());
    let mut skipped = 0;
    while let Some(mut updater) = index.begin_update(4)? {
        for i in 0..updater.len() {
            let name = updater.value(i)?;
            let vector = COLORS.iter().find(|c| name == c.0).map(|c| c.1.map(|x| x as f32));
            if name == "red" && skipped == 0 {
                updater.skip_vector(i)?;
                skipped += 1;
            } else {
                updater.set_vector(i, vector.as_ref().map(|v| &v[..]))?;
            }
        }
        updater.finish()?;
        assert_eq!(updater.finish().unwrap_err().kind(), ErrorKind::NotOpen);
    }
    assert_eq!(skipped, 1);
    assert_eq!(colors_of(&db, sql)?, ["maroon", "red", "rose"]);

    colors.put("late", &json!({"color": "late"}))?;
    let mut updater = index.begin_update(10)?.unwrap();
    assert_eq!(updater.len(), 1);
    assert_eq!(updater.value(1).unwrap_err().kind(), ErrorKind::InvalidParameter);
    assert_eq!(updater.set_vector(0, Some(&[1.0, 2.0])).unwrap_err().kind(), ErrorKind::InvalidParameter);
    assert_eq!(updater.finish().unwrap_err().kind(), ErrorKind::Unsupported);
    drop(updater);
    assert_eq!(index.begin_update(0).unwrap_err().kind(), ErrorKind::InvalidParameter);
    Ok(())
}
