print("reckon")
