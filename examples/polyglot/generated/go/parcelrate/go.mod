module rulec/parcelrate

go 1.18
